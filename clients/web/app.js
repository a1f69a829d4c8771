// The web chat client: signs in, runs seqsync-client (served from /web/lib/, the npm package's own
// source) and shows what it hands over. It tells the library what it rendered, and nothing else
// of the protocol is its business.
import { SeqsyncClient, parseToken } from './lib/index.js';
import { GroupControls } from './groups.js';
import { MessageActions } from './actions.js';
import { attachControls } from './attachments.js';
import { installPresence } from './presence.js';
import { OfflineMode, cacheShell, deviceStore } from './offline.js';
import { installNotifications, pinnedFirst } from './notifications.js';
import { MessageViews, renderList, titleOf } from './views.js';

const $ = (selector) => document.querySelector(selector);
const TOKEN_KEY = 'seqsync:token';

async function signIn() {
  const saved = sessionStorage.getItem(TOKEN_KEY);
  if (saved) return saved;
  $('#sign-in').hidden = false;
  const dev = await fetch('/dev/sign-in').then((response) => response.ok).catch(() => false);
  const form = dev ? $('#dev-sign-in') : $('#token-sign-in');
  form.hidden = false;
  if (dev) form.elements.deviceId.value = `web-${Math.random().toString(36).slice(2, 8)}`;
  return new Promise((resolve) => form.addEventListener('submit', async (event) => {
    event.preventDefault();
    let token = form.elements.token?.value.trim();
    if (dev) {
      const answer = await fetch('/dev/sign-in', {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: form.elements.userId.value.trim(), deviceId: form.elements.deviceId.value.trim() }),
      });
      const body = await answer.json();
      if (!answer.ok) {
        $('#sign-in-error').textContent = body.error?.message ?? 'sign-in failed';
        return;
      }
      token = body.token;
    }
    try {
      parseToken(token);
    } catch (error) {
      $('#sign-in-error').textContent = error.message;
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, token);
    $('#sign-in').hidden = true;
    resolve(token);
  }));
}

async function start(token) {
  const me = parseToken(token);
  const client = new SeqsyncClient({ baseUrl: location.origin, token, store: await deviceStore(me) });
  window.seqsync = client; // for the curious, and for tests
  const actions = new MessageActions(client, me.userId,
    { composer: $('#composer'), bar: $('#action-bar'), suggestions: $('#mention-suggestions') }, report);
  const views = new MessageViews(me.userId, { recall: (convId, seq) => client.recall(convId, seq).catch(report),
    attachmentUrl: (convId, seq) => client.attachmentUrl(convId, seq), decorate: (...args) => actions.decorate(...args) });
  const groups = new GroupControls(client, me.userId, report);
  groups.loadBlocks().catch(report);
  let openConvId = null;
  let everLive = false;

  $('#chat').hidden = false;
  $('#me').textContent = `User ${me.userId} · ${me.deviceId}`;

  const decorateList = installNotifications(client, { deviceId: me.deviceId, button: $('#enable-push'), report });
  const showList = () => {
    renderList($('#conversations'), pinnedFirst(client.list()), { me: me.userId, openConvId, onOpen: open });
    decorateList($('#conversations'));
  };
  const atBottom = () => { const s = $('#scroller'); return s.scrollHeight - s.scrollTop - s.clientHeight < 60; };
  const readIfSeen = () => {
    if (openConvId && document.visibilityState === 'visible') client.markRead(openConvId).catch(report);
  };

  client.on('state', ({ state }) => {
    const banner = $('#banner');
    if (state === 'live') everLive = true;
    banner.hidden = state === 'live' || state === 'closed' || (!everLive && state === 'connecting');
    banner.className = state === 'syncing' ? 'syncing' : '';
    banner.textContent = state === 'syncing' ? 'Catching up…' : 'Offline: reconnecting…';
    if (state === 'live') client.refreshList().catch(report);
  });
  client.on('list', showList);
  client.on('message', ({ convId, message }) => {
    const failure = views.show(convId, message);
    if (failure) client.renderFailed(convId, message.seq, failure);
    else client.rendered(convId, message.seq);
    if (convId === openConvId) {
      if (atBottom()) $('#scroller').scrollTop = $('#scroller').scrollHeight;
      readIfSeen();
    }
  });
  client.on('updated', ({ convId, message, pending }) => {
    if (message) views.show(convId, message);
    if (pending) views.showPending(convId, pending);
  });
  client.on('receipt', ({ convId, seq }) => views.receipt(convId, seq));
  client.on('draft', ({ convId, text }) => {
    if (convId === openConvId && document.activeElement !== $('#composer textarea')) $('#composer textarea').value = text ?? '';
  });
  client.on('membership', ({ convId }) => {
    if (convId !== openConvId) return;
    actions.opened(client.conversation(convId));
    showHeader(client.conversation(convId));
    groups.show(client.conversation(convId));
  });
  client.on('error', ({ error, during }) => console.debug('seqsync', during, error));

  async function open(convId) {
    openConvId = convId;
    const conv = client.conversation(convId);
    $('#conversation').hidden = false;
    $('#messages').replaceChildren(views.list(convId));
    $('#composer textarea').value = conv.draft ?? '';
    showHeader(conv);
    groups.show(conv);
    actions.opened(conv);
    showList();
    presence.opened(conv).catch(report);
    await client.open(convId).catch(report);
    if (openConvId !== convId) return;
    showHeader(conv);
    // The activation's draft, unless the user started typing meanwhile.
    const box = $('#composer textarea');
    if (document.activeElement !== box && !box.value) box.value = conv.draft ?? '';
    $('#scroller').scrollTop = $('#scroller').scrollHeight;
    readIfSeen();
  }

  function showHeader(conv) {
    $('#title').textContent = titleOf(conv, me.userId);
    $('#members').textContent = conv.members ? `members: ${conv.members.join(', ')}` : '';
  }

  let loadingOlder = false;
  $('#scroller').addEventListener('scroll', async () => {
    const conv = openConvId && client.conversation(openConvId);
    if (!conv || loadingOlder || conv.hasOlder === false || $('#scroller').scrollTop > 40) return;
    loadingOlder = true;
    $('#older').hidden = false;
    const before = $('#scroller').scrollHeight;
    await client.loadOlder(conv.convId).catch(report);
    $('#scroller').scrollTop += $('#scroller').scrollHeight - before; // keep the reader where they were
    $('#older').hidden = true;
    loadingOlder = false;
  });

  const composer = $('#composer');
  composer.elements.text.addEventListener('input', () => openConvId && client.setDraft(openConvId, composer.elements.text.value));
  composer.elements.text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); composer.requestSubmit(); }
  });
  composer.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = composer.elements.text.value.trim();
    if (!openConvId || !text) return;
    const asked = actions.submit(openConvId, text);
    if (asked === true) {
      composer.elements.text.value = '';
      return;
    }
    const pending = client.send(openConvId, text, 'text', asked);
    views.showPending(openConvId, pending);
    composer.elements.text.value = '';
    client.setDraft(openConvId, '');
    $('#scroller').scrollTop = $('#scroller').scrollHeight;
  });

  attachControls({ client, openConvId: () => openConvId, dropZone: $('#conversation'), caption: () => '',
    onSent: (convId, pending) => views.showPending(convId, pending), onError: report });

  $('#new-chat').addEventListener('submit', (event) => {
    event.preventDefault();
    const other = event.target.elements.userId.value.trim();
    const [a, b] = [BigInt(me.userId), BigInt(other)].sort((x, y) => (x < y ? -1 : 1));
    if (a !== b) open(`d:${a}:${b}`);
    event.target.reset();
  });
  $('#new-group').addEventListener('submit', async (event) => {
    event.preventDefault();
    const { name, members } = event.target.elements;
    const convId = await client.createGroup(name.value.trim(), members.value.split(/[\s,]+/).filter(Boolean)).catch(report);
    event.target.reset();
    if (convId) open(convId);
  });
  $('#add-member').addEventListener('submit', async (event) => {
    event.preventDefault();
    await client.changeMembers(openConvId, { add: [event.target.elements.userId.value.trim()] }).catch(report);
    event.target.reset();
  });
  // Signs the device out on the server (its token is refused from then on) and leaves nothing of it
  // in this browser: the token, cursors and unsent messages.
  $('#sign-out').addEventListener('click', async () => {
    await client.signOut().catch(report);
    sessionStorage.removeItem(TOKEN_KEY);
    location.reload();
  });
  document.addEventListener('visibilitychange', readIfSeen);
  const presence = installPresence(client, views, { me: me.userId, openConvId: () => openConvId });
  new OfflineMode(client, views);
  client.connect();
}

function report(error) {
  console.warn(error);
  const banner = $('#banner');
  if (!banner.hidden) return;
  banner.hidden = false;
  banner.textContent = error?.message ?? String(error);
  setTimeout(() => { if (banner.textContent === (error?.message ?? String(error))) banner.hidden = true; }, 4000);
}

cacheShell();
signIn().then(start);
