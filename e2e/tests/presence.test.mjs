// Typing, presence and delivered receipts (docs/api.md, "Typing and presence", "Receipts") against
// the real app, through the library on both sides: what one user does reaches the other user's
// socket within a second, and is gone within its timeout; a sender sees a message delivered (a
// device of the recipient acked it), then seen (the recipient read it); the same in the web client in
// Chromium (✓, then ✓✓, the peer's presence dot and typing line); bad frames answered with an error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { App } from '../lib/app.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { libraryClient } from '../lib/clients.mjs';
import { launchChromium } from '../lib/browser.mjs';
import { ChatPage } from '../lib/chat-page.mjs';
import { mintToken } from '../lib/tokens.mjs';

const TYPING_TIMEOUT_MS = 3000;
const THROTTLE_MS = 300;
const app = new App({
  name: 'presence',
  env: { SEQSYNC_PRESENCE_TYPING_TIMEOUT: `${TYPING_TIMEOUT_MS}ms`, SEQSYNC_PRESENCE_THROTTLE: `${THROTTLE_MS}ms` },
});
before(() => app.start(), { timeout: 240_000 });
after(() => app.stop());

/** The next event `name` of `client` that `accept` takes, with the ms it took; fails after `withinMs`. */
function next(client, name, accept, withinMs) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const stop = client.on(name, (event) => {
      if (!accept(event)) return;
      clearTimeout(timer);
      stop();
      resolve({ event, ms: performance.now() - started });
    });
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no ${name} event within ${withinMs} ms`));
    }, withinMs);
  });
}

test('typing and presence reach the other user within a second and are gone within their timeout', { timeout: 60_000 }, async (t) => {
  const conv = 'd:701:702';
  await new Caller(app, 701, 'phone').send(conv, 'hello'); // now they share a conversation, once it is stored
  await eventually(() => new Caller(app, 702, 'laptop').call('GET', '/v1/presence?users=701'),
    (answer) => answer.presence[0].status !== 'unknown', { what: 'the conversation stored' });
  const bob = libraryClient(app, 702, 'laptop');
  const alice = libraryClient(app, 701, 'phone');
  try {
    await bob.connect();
    await bob.caughtUp();
    const [before] = await bob.presence(['701']);
    assert.equal(before.status, 'offline', 'never connected: offline, with no last seen');

    const online = next(bob, 'presence', (p) => p.userId === '701' && p.status === 'online', 1000);
    await alice.connect();
    t.diagnostic(`online after ${Math.round((await online).ms)} ms`);

    await alice.caughtUp();
    const typing = next(bob, 'typing', (e) => e.convId === conv && e.userId === '701' && e.active, 1000);
    alice.typing(conv);
    t.diagnostic(`typing after ${Math.round((await typing).ms)} ms`);
    const gone = await next(bob, 'typing', (e) => e.userId === '701' && !e.active, TYPING_TIMEOUT_MS + 1000);
    assert.ok(gone.ms >= TYPING_TIMEOUT_MS - 200, `the typing line lasted its timeout (${Math.round(gone.ms)} ms)`);

    const away = next(bob, 'presence', (p) => p.userId === '701' && p.status === 'away', 1000 + THROTTLE_MS);
    alice.setVisibility(true);
    await away;

    const offline = next(bob, 'presence', (p) => p.userId === '701' && p.status === 'offline', 1000 + THROTTLE_MS);
    const closedAt = Date.now();
    await alice.close();
    const { event } = await offline;
    assert.ok(Math.abs(event.lastSeen - closedAt) < 2000, `last seen when the socket closed (${event.lastSeen - closedAt} ms)`);

    // A user who shares no conversation sees nothing; a user who hides their presence shows as unknown.
    const stranger = new Caller(app, 703, 'phone');
    assert.deepEqual((await stranger.call('GET', '/v1/presence?users=701')).presence, [{ userId: '701', status: 'unknown' }]);
    const aliceHttp = new Caller(app, 701, 'phone');
    assert.deepEqual(await aliceHttp.call('PUT', '/v1/presence/settings', { visibility: 'nobody' }), { visibility: 'nobody' });
    assert.deepEqual((await new Caller(app, 702, 'laptop').call('GET', '/v1/presence?users=701')).presence,
      [{ userId: '701', status: 'unknown' }]);
    await aliceHttp.call('PUT', '/v1/presence/settings', { visibility: 'members' });
    await assert.rejects(aliceHttp.call('PUT', '/v1/presence/settings', { visibility: 'friends' }), /400/);
    await assert.rejects(aliceHttp.call('GET', '/v1/presence?users=abc'), /400/);
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
});

test('the sender sees a message delivered, then seen', { timeout: 60_000 }, async (t) => {
  const conv = 'd:711:712';
  const alice = libraryClient(app, 711, 'phone');
  const bob = libraryClient(app, 712, 'laptop');
  try {
    await alice.connect();
    await alice.caughtUp();
    const sent = await alice.send(conv, 'are you there?').committed;
    await alice.loadReceipts(conv);
    assert.deepEqual(alice.messageReceipts(conv, sent.seq, '711'), { delivered: 0, seen: 0, of: 1 });

    const delivered = next(alice, 'delivered', (e) => e.convId === conv && e.userId === '712' && e.seq >= sent.seq, 5000);
    await bob.connect(); // renders, and so acks, what it is handed; reads nothing yet
    t.diagnostic(`delivered after ${Math.round((await delivered).ms)} ms`);
    assert.deepEqual(alice.messageReceipts(conv, sent.seq, '711'), { delivered: 1, seen: 0, of: 1 });

    const seen = next(alice, 'receipt', (e) => e.convId === conv && e.userId === '712' && e.seq >= sent.seq, 5000);
    await bob.caughtUp();
    await bob.markRead(conv, sent.seq);
    await seen;
    assert.deepEqual(alice.messageReceipts(conv, sent.seq, '711'), { delivered: 1, seen: 1, of: 1 });

    // The same from the server, for a device that was not listening.
    const fresh = libraryClient(app, 711, 'tablet');
    await fresh.loadReceipts(conv);
    assert.deepEqual(fresh.messageReceipts(conv, sent.seq, '711'), { delivered: 1, seen: 1, of: 1 });
    await assert.rejects(new Caller(app, 713, 'x').call('GET', `/v1/conversations/${conv}/receipts`), /403/);

    // A group counts: of the two other members, one got it, then read it.
    const group = await alice.createGroup('ticks', ['712', '713']);
    const toBoth = await alice.send(group, 'to both').committed;
    await alice.loadReceipts(group);
    const ticks = () => alice.messageReceipts(group, toBoth.seq, '711');
    await eventually(async () => ticks(), (r) => r.delivered === 1, { timeoutMs: 10_000, what: 'delivered to one of two' });
    assert.deepEqual(ticks(), { delivered: 1, seen: 0, of: 2 });
    await bob.markRead(group, toBoth.seq);
    await eventually(async () => ticks(), (r) => r.seen === 1, { timeoutMs: 10_000, what: 'seen by one of two' });
    assert.deepEqual(ticks(), { delivered: 1, seen: 1, of: 2 });
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
});

test('in Chromium: the sender sees ✓ delivered, then ✓✓ seen, the peer online and typing', { timeout: 120_000 }, async () => {
  const conv = 'd:721:722';
  await new Caller(app, 722, 'seed').send(conv, 'hi'); // both list the conversation
  const browser = await launchChromium();
  try {
    const [sender, recipient] = await Promise.all([
      ChatPage.signIn(browser, app, 721, 'desk'), ChatPage.signIn(browser, app, 722, 'laptop')]);
    await sender.conversation(conv).waitFor();
    await sender.open(conv);
    await sender.page.locator('#presence.online').waitFor({ timeout: 10_000 });
    await sender.send('did you get this?');
    const mine = sender.page.locator('#messages li.mine[data-seq]', { hasText: 'did you get this?' });
    // The recipient's page renders it (and so acks it) without opening the conversation: delivered, not seen.
    await mine.locator('.ticks[data-state="delivered"]').waitFor({ timeout: 10_000 });
    assert.equal(await mine.locator('.ticks').textContent(), '✓');
    await sender.screenshot('ticks-delivered');

    await recipient.conversation(conv).waitFor();
    await recipient.open(conv);
    await mine.locator('.ticks[data-state="seen"]').waitFor({ timeout: 10_000 });
    assert.equal(await mine.locator('.ticks').textContent(), '✓✓');

    await recipient.page.locator('#composer textarea').pressSequentially('typing a reply');
    await sender.page.locator('#typing', { hasText: 'user 722 is typing' }).waitFor({ timeout: 5_000 });
    await sender.screenshot('ticks-seen-typing');
  } finally {
    await browser.close();
  }
});

test('bad typing, visibility and presence frames get an error frame and change nothing', { timeout: 30_000 }, async () => {
  const socket = new WebSocket(`${app.baseUrl.replace(/^http/, 'ws')}/v1/stream?access_token=${mintToken(app.secret, 731, 'phone')}`);
  const frames = [];
  let waiting = null;
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)));
    waiting?.();
  });
  const nextFrame = async () => {
    while (frames.length === 0) await new Promise((resolve) => { waiting = resolve; });
    return frames.shift();
  };
  try {
    assert.equal((await nextFrame()).type, 'sync');
    const errorOf = async (frame) => {
      socket.send(JSON.stringify(frame));
      const answer = await nextFrame();
      assert.equal(answer.type, 'error', JSON.stringify(frame));
      return answer.error.code;
    };
    assert.equal(await errorOf({ type: 'typing', convId: 'nope' }), 'invalid_conv_id');
    assert.equal(await errorOf({ type: 'typing', convId: 'd:1:2' }), 'not_a_member');
    assert.equal(await errorOf({ type: 'typing', convId: 'd:731:732', active: 'yes' }), 'invalid_field');
    assert.equal(await errorOf({ type: 'visibility' }), 'invalid_field');
    assert.equal(await errorOf({ type: 'presence', users: [] }), 'invalid_field');
    assert.equal(await errorOf({ type: 'presence', users: ['0'] }), 'invalid_field');
    assert.equal(await errorOf({ type: 'presence', users: Array.from({ length: 201 }, (_, i) => String(i + 1)) }), 'too_many_users');
    // Still served: a ping is answered.
    socket.send('{"type":"ping"}');
    assert.equal((await nextFrame()).type, 'pong');
  } finally {
    socket.close();
  }
});
