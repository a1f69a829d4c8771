// Notifications in the web client: the unread badge in the tab's title, mute and pin in the list,
// and Web Push (docs/api.md, "Push notifications") where the browser allows it: a button asks for
// the permission (browsers want a gesture), then the page subscribes with the server's VAPID key
// and registers the subscription as this device's pusher.
const BASE_TITLE = document.title;

/** The unread messages of the listed conversations: the tab's badge. */
export function badgeOf(conversations) {
  return conversations.reduce((total, conv) => total + (conv.unread ?? 0), 0);
}

/** Pinned first, each part in the list's own order. */
export function pinnedFirst(conversations) {
  return [...conversations.filter((conv) => conv.pinned), ...conversations.filter((conv) => !conv.pinned)];
}

function base64UrlToBytes(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function active(registration) {
  const worker = registration.installing ?? registration.waiting;
  if (registration.active || !worker) return Promise.resolve();
  return new Promise((resolve) => worker.addEventListener('statechange', () => {
    if (worker.state === 'activated') resolve();
  }));
}

async function subscribe(client, deviceId) {
  const { publicKey } = await client.api.call('GET', '/v1/push/vapid', { kind: 'push' });
  // The page's worker (which imports the push handler), or the handler alone in its own scope.
  const registration = (await navigator.serviceWorker.getRegistration('/'))
    ?? await navigator.serviceWorker.register('web/push-sw.js');
  await active(registration);
  const subscription = await registration.pushManager.getSubscription()
    ?? await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(publicKey) });
  const { endpoint, keys } = subscription.toJSON();
  await client.api.call('POST', `/v1/devices/${encodeURIComponent(deviceId)}/pushers`,
    { kind: 'push', body: { kind: 'webpush', endpoint, keys } });
}

/**
 * Installs the title badge and the push button; returns `decorate(container)`, which adds mute and
 * pin toggles to the rendered list's items.
 */
export function installNotifications(client, { deviceId, button, report }) {
  client.on('list', () => {
    const unread = badgeOf(client.list());
    document.title = unread > 0 ? `(${unread}) ${BASE_TITLE}` : BASE_TITLE;
  });
  const pushable = 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (button && pushable && Notification.permission !== 'denied') {
    button.hidden = false;
    const enable = async () => {
      if (await Notification.requestPermission() !== 'granted') return;
      await subscribe(client, deviceId);
      button.hidden = true;
    };
    button.addEventListener('click', () => enable().catch(report));
    if (Notification.permission === 'granted') enable().catch(report);
  }
  const change = (convId, settings) => client.api.call('PUT', `/v1/conversations/${encodeURIComponent(convId)}/list-settings`,
    { kind: 'list-settings', body: settings }).then(() => client.refreshList()).catch(report);
  return function decorate(container) {
    const byId = new Map(client.list().map((conv) => [conv.convId, conv]));
    for (const item of container.querySelectorAll('li[data-conv]')) {
      const conv = byId.get(item.dataset.conv);
      if (!conv) continue;
      item.classList.toggle('muted', conv.muted);
      item.classList.toggle('pinned', conv.pinned);
      for (const [name, on, label] of [['pinned', conv.pinned, '📌'], ['muted', conv.muted, '🔕']]) {
        const toggle = document.createElement('button');
        toggle.type = 'button';
        toggle.className = `toggle ${name}${on ? ' on' : ''}`;
        toggle.textContent = label;
        toggle.title = on ? `un${name === 'muted' ? 'mute' : 'pin'}` : (name === 'muted' ? 'mute' : 'pin');
        toggle.addEventListener('click', (event) => {
          event.stopPropagation();
          change(conv.convId, { [name]: !on });
        });
        item.append(toggle);
      }
    }
  };
}
