// The service worker's push handler (Web Push, RFC 8030): shows what the server sent (seqsync's
// notification facts, docs/api.md "Push notifications"), sets the app badge where the browser has
// one, and focuses or opens the chat on a click. Imported by the web client's service worker
// (importScripts('/web/push-sw.js')), or registered by itself where there is none.
self.addEventListener('push', (event) => {
  let facts = {};
  try { facts = event.data ? event.data.json() : {}; } catch { facts = {}; }
  event.waitUntil((async () => {
    if ('setAppBadge' in self.navigator) {
      await (facts.unread > 0 ? self.navigator.setAppBadge(facts.unread) : self.navigator.clearAppBadge()).catch(() => {});
    }
    const tag = `seqsync:${facts.convId ?? 'badge'}`;
    if (facts.kind !== 'message') {
      // A read elsewhere: the conversation's notification goes once nothing in it is unread.
      if (facts.conversationUnread === 0) {
        for (const shown of await self.registration.getNotifications({ tag })) shown.close();
      }
      return;
    }
    await self.registration.showNotification(`User ${facts.senderId}`, {
      tag, renotify: true, body: facts.preview ?? 'New message', data: { convId: facts.convId },
    });
  })());
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    if (windows.length > 0) return windows[0].focus();
    return self.clients.openWindow('/');
  })());
});
