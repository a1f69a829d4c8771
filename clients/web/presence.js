// Typing, presence and ticks in the web client: a typing line under the messages, a presence dot
// beside a direct conversation's title, ✓ delivered and ✓✓ seen on our messages (a group shows
// counts), and this tab's visibility told to the server (a user whose tabs are all hidden is away).
// All of it comes from seqsync-client's events; app.js only hooks it in.

const $ = (selector) => document.querySelector(selector);

/**
 * @param {import('./lib/index.js').SeqsyncClient} client
 * @param {{list(convId: string): HTMLElement}} views the message lists
 * @param {{me: string, openConvId: () => string | null}} page
 */
export function installPresence(client, views, { me, openConvId }) {
  const typing = new Map(); // convId -> Set of user ids typing there

  const showTyping = () => {
    const convId = openConvId();
    const users = convId ? [...(typing.get(convId) ?? [])] : [];
    $('#typing').textContent = users.length === 0 ? ''
      : `${users.map((id) => `user ${id}`).join(', ')} ${users.length === 1 ? 'is' : 'are'} typing…`;
  };
  client.on('typing', ({ convId, userId, active }) => {
    const set = typing.get(convId) ?? new Set();
    if (active) set.add(userId);
    else set.delete(userId);
    typing.set(convId, set);
    showTyping();
  });

  const showPresence = ({ userId, status, lastSeen }) => {
    const dot = $('#presence');
    if (dot.dataset.user !== userId) return;
    dot.className = `presence ${status}`;
    dot.title = status === 'offline' && lastSeen ? `last seen ${new Date(lastSeen).toLocaleString()}` : status;
    dot.textContent = status === 'offline' && lastSeen ? `last seen ${new Date(lastSeen).toLocaleTimeString()}` : status;
  };
  client.on('presence', showPresence);

  const refreshTicks = (convId) => {
    for (const item of views.list(convId).querySelectorAll('li.mine[data-seq]')) {
      const { delivered, seen, of } = client.messageReceipts(convId, Number(item.dataset.seq), me);
      let ticks = item.querySelector('.ticks');
      if (!ticks) item.append((ticks = Object.assign(document.createElement('span'), { className: 'meta ticks' })));
      const state = of > 0 && seen === of ? 'seen' : of > 0 && delivered === of ? 'delivered' : 'sent';
      ticks.dataset.state = state;
      ticks.title = state;
      ticks.textContent = of <= 1 ? { seen: '✓✓', delivered: '✓', sent: '' }[state]
        : `✓ ${delivered}/${of} · ✓✓ ${seen}/${of}`;
    }
  };
  for (const event of ['delivered', 'receipt', 'message']) {
    client.on(event, ({ convId }) => { if (convId === openConvId()) refreshTicks(convId); });
  }

  const composer = $('#composer');
  composer.elements.text.addEventListener('input', () => {
    const convId = openConvId();
    if (convId) client.typing(convId, composer.elements.text.value.length > 0);
  });
  composer.addEventListener('submit', () => { const convId = openConvId(); if (convId) client.typing(convId, false); });

  const visibility = () => client.setVisibility(document.visibilityState === 'hidden');
  document.addEventListener('visibilitychange', visibility);
  client.on('state', ({ state }) => { if (state === 'live' && document.visibilityState === 'hidden') visibility(); });

  return {
    /** A conversation was opened: its typing line, its peer's presence dot, its ticks. */
    async opened(conv) {
      showTyping();
      const dot = $('#presence');
      const peer = conv.kind === 'direct' ? conv.convId.slice(2).split(':').find((id) => id !== me) ?? me : null;
      dot.hidden = !peer;
      dot.dataset.user = peer ?? '';
      dot.textContent = '';
      if (peer) {
        const [now] = await client.presence([peer]).catch(() => []);
        if (now) showPresence(now);
      }
      await client.loadReceipts(conv.convId).catch(() => {});
      if (openConvId() === conv.convId) refreshTicks(conv.convId);
    },
  };
}
