// Push notifications (docs/api.md, "Push notifications") against the real app and a real gateway
// on loopback that records what it receives: one notification per coalesced burst with the exact
// badge, a read on another device updating it, a muted conversation sending none, a failing
// gateway retried then dead-lettered, and a kill -9 mid-burst that loses none and repeats none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { App, sleep } from '../lib/app.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { PushGateway } from '../lib/push-gateway.mjs';
import { WebPushReceiver, verifiedVapid } from '../lib/web-push-receiver.mjs';
import { launchChromium } from '../lib/browser.mjs';
import { ChatPage } from '../lib/chat-page.mjs';
import { libraryClient } from '../lib/clients.mjs';

const WINDOW_MS = 2000;
const MAX_ATTEMPTS = 3;
const gateway = new PushGateway();
const app = new App({
  name: 'push-notifications',
  env: {
    SEQSYNC_NOTIFY_COALESCE_WINDOW: `${WINDOW_MS}ms`,
    SEQSYNC_NOTIFY_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    SEQSYNC_NOTIFY_FIRST_BACKOFF: '200ms',
    SEQSYNC_NOTIFY_MAX_BACKOFF: '400ms',
  },
});
before(async () => {
  await gateway.start();
  await app.start();
}, { timeout: 240_000 });
after(async () => {
  await app.stop();
  await gateway.close();
});

async function pusher(userId, device, pushkey) {
  const caller = new Caller(app, userId, device);
  const added = await caller.call('POST', `/v1/devices/${device}/pushers`,
    { kind: 'http', url: gateway.url, pushkey, appId: 'io.seqsync.test' });
  assert.equal(added.kind, 'http');
  return caller;
}

/** Sends and returns the stored message (a send answered 202 past the reply budget is looked up). */
async function stored(caller, convId, content) {
  const clientMsgId = `${caller.deviceId}-${Math.random().toString(36).slice(2)}`;
  const answer = await caller.send(convId, content, { clientMsgId });
  if (answer.message) return answer.message;
  const page = await eventually(() => caller.page(convId, { last: 50 }),
    (p) => p.messages.some((m) => m.clientMsgId === clientMsgId), { what: 'the send stored' });
  return page.messages.find((m) => m.clientMsgId === clientMsgId);
}

const metric = async (outcome) => {
  const text = await (await fetch(`${app.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('seqsync_notifier_deliveries_total')
    && l.includes(`outcome="${outcome}"`));
  return line ? Number(line.split(' ').pop()) : 0;
};

test('a device without a socket gets one notification per burst with the exact badge; a read elsewhere updates it', { timeout: 60_000 }, async () => {
  await pusher(811, 'phone', 'pk-811');
  const bob = new Caller(app, 812, 'laptop');
  const conv = 'd:811:812';
  await bob.send('d:812:819', 'warm-up'); // the first sends after a start are slow: the burst must fit the window
  await Promise.all([1, 2, 3, 4, 5].map((i) => bob.send(conv, `burst ${i}`)));
  // A send may be answered 202 (past the reply budget on a loaded machine): the stored page tells the seqs.
  const sent = (await eventually(() => bob.page(conv, { last: 20 }), (page) => page.messages.length === 5,
    { what: 'the burst stored' })).messages.sort((a, b) => a.seq - b.seq);
  const [first] = await eventually(async () => gateway.notifications('pk-811'), (n) => n.length >= 1,
    { what: 'the burst notification' });
  await sleep(WINDOW_MS + 1000);
  assert.equal(gateway.notifications('pk-811').length, 1, 'one notification for the burst');
  assert.equal(first.room_id, conv);
  assert.equal(first.sender, '812');
  assert.equal(first.event_id, sent[4].msgId, 'the burst\'s latest message');
  assert.equal(first.content.body, sent[4].content);
  assert.equal(first.counts.unread, 5, 'the badge counts every unread message');
  assert.equal(first.devices[0].data.seqsync.seq, sent[4].seq);

  await new Caller(app, 811, 'tablet').call('POST', '/v1/reads', { convId: conv, seq: sent[2].seq });
  const update = await eventually(async () => gateway.notifications('pk-811'), (n) => n.length >= 2,
    { what: 'the badge update' });
  assert.equal(update[1].event_id, undefined, 'a badge update names no message');
  assert.equal(update[1].counts.unread, 2, 'read up to the third of five: two left');
});

test('a device connected with a visible socket gets no notification; once it left, it does', { timeout: 60_000 }, async () => {
  await pusher(871, 'phone', 'pk-871');
  const conv = 'd:871:872';
  const sender = new Caller(app, 872, 'laptop');
  const phone = libraryClient(app, 871, 'phone');
  try {
    await phone.connect();
    await phone.caughtUp();
    await sender.send(conv, 'seen live');
    await eventually(async () => phone.received, (r) => r.some((m) => m.content === 'seen live'), { what: 'the push frame' });
    await sleep(WINDOW_MS + 1000);
    assert.equal(gateway.notifications('pk-871').length, 0, 'the socket showed it');
  } finally {
    await phone.close();
  }
  await sleep(500);
  await sender.send(conv, 'while away');
  const [note] = await eventually(async () => gateway.notifications('pk-871'), (n) => n.length === 1,
    { what: 'the notification once the socket closed' });
  assert.equal(note.content.body, 'while away');
  assert.equal(note.counts.unread, 2);
});

test('a muted conversation sends none, another one still does; the list shows the setting', { timeout: 60_000 }, async () => {
  const alice = await pusher(821, 'phone', 'pk-821');
  const muted = 'd:821:822';
  const other = 'd:821:823';
  await new Caller(app, 822, 'laptop').send(muted, 'before the mute');
  await alice.call('PUT', `/v1/conversations/${muted}/list-settings`, { muted: true, pinned: true });
  const before = gateway.notifications('pk-821').length;
  await eventually(() => alice.call('GET', '/v1/conversations'),
    (page) => page.conversations.some((c) => c.convId === muted && c.muted && c.pinned), { what: 'the list settings' });
  for (let i = 1; i <= 3; i++) await new Caller(app, 822, 'laptop').send(muted, `muted ${i}`);
  await new Caller(app, 823, 'laptop').send(other, 'not muted');
  await eventually(async () => gateway.notifications('pk-821').filter((n) => n.room_id === other),
    (n) => n.length === 1, { what: 'the other conversation\'s notification' });
  await sleep(WINDOW_MS);
  assert.deepEqual(gateway.notifications('pk-821').slice(before).filter((n) => n.room_id === muted), [],
    'nothing from the muted conversation');
});

test('a gateway answering 500 is tried max-attempts times, then dead-lettered', { timeout: 60_000 }, async () => {
  gateway.failing.add('pk-831');
  await pusher(831, 'phone', 'pk-831');
  const deadBefore = await metric('gave_up');
  await new Caller(app, 832, 'laptop').send('d:831:832', 'to a broken gateway');
  await eventually(async () => gateway.notifications('pk-831'), (n) => n.length >= MAX_ATTEMPTS,
    { what: 'the retries' });
  await eventually(() => metric('gave_up'), (n) => n === deadBefore + 1, { what: 'the dead letter' });
  await sleep(1500);
  assert.equal(gateway.notifications('pk-831').length, MAX_ATTEMPTS, 'no try after the last');
});

test('a Web Push subscription gets the notification encrypted to its keys, with a VAPID token the browser\'s key verifies', { timeout: 60_000 }, async () => {
  const receiver = new WebPushReceiver();
  const device = new Caller(app, 851, 'browser');
  const { publicKey } = await device.call('GET', '/v1/push/vapid');
  const endpoint = gateway.url.replace('/_matrix/push/v1/notify', '/webpush/851');
  await device.call('POST', '/v1/devices/browser/pushers', { kind: 'webpush', endpoint, keys: receiver.keys() });
  const sent = await stored(new Caller(app, 852, 'laptop'), 'd:851:852', 'secret 🍉');

  const [push] = await eventually(async () => gateway.received.filter((r) => r.path === '/webpush/851'),
    (r) => r.length >= 1, { what: 'the web push' });
  assert.equal(push.headers['content-encoding'], 'aes128gcm');
  const vapid = verifiedVapid(push.headers.authorization);
  assert.equal(vapid.key, publicKey, 'signed with the key browsers subscribe with');
  assert.equal(vapid.claims.aud, new URL(gateway.url).origin);
  const facts = JSON.parse(receiver.decrypt(push.body).toString('utf8'));
  assert.deepEqual({ kind: facts.kind, convId: facts.convId, seq: facts.seq, msgId: facts.msgId, preview: facts.preview, unread: facts.unread },
    { kind: 'message', convId: 'd:851:852', seq: sent.seq, msgId: sent.msgId, preview: 'secret 🍉', unread: 1 });
  assert.throws(() => new WebPushReceiver().decrypt(push.body), 'another subscription\'s keys do not decrypt it');
});

test('the web client shows the unread badge in the tab title, and mutes and pins from the list', { timeout: 120_000 }, async () => {
  const conv = 'd:861:862';
  const quiet = 'd:861:863';
  await new Caller(app, 863, 'laptop').send(quiet, 'older');
  const browser = await launchChromium();
  try {
    const chat = await ChatPage.signIn(browser, app, 861, 'web');
    await new Caller(app, 862, 'laptop').send(conv, 'one');
    await new Caller(app, 862, 'laptop').send(conv, 'two');
    await chat.page.waitForFunction(() => document.title.startsWith('(3) '), null, { timeout: 20_000 });
    await chat.conversation(conv).locator('.toggle.muted').click();
    await chat.page.locator(`#conversations li.muted[data-conv="${conv}"]`).waitFor({ timeout: 20_000 });
    await chat.conversation(quiet).locator('.toggle.pinned').click();
    await chat.page.locator(`#conversations li.pinned[data-conv="${quiet}"]`).waitFor({ timeout: 20_000 });
    assert.equal(await chat.page.locator('#conversations li').first().getAttribute('data-conv'), quiet, 'pinned on top');
    const listed = await new Caller(app, 861, 'other').call('GET', '/v1/conversations');
    assert.deepEqual(listed.conversations.map((c) => [c.convId, c.muted, c.pinned]).sort(),
      [[conv, true, false], [quiet, false, true]]);
  } finally {
    await browser.close();
  }
});

test('kill -9 mid-burst: every message is notified at least once, none twice', { timeout: 240_000 }, async () => {
  await pusher(841, 'phone', 'pk-841');
  const sender = new Caller(app, 842, 'laptop');
  const conv = 'd:841:842';
  const sent = [];
  for (let i = 1; i <= 12; i++) {
    sent.push(await stored(sender, conv, `before ${i}`));
    await sleep(150);
  }
  await app.kill();
  await app.start();
  for (let i = 1; i <= 6; i++) {
    sent.push(await stored(sender, conv, `after ${i}`));
    await sleep(150);
  }
  const last = sent.at(-1);
  const notes = await eventually(async () => gateway.notifications('pk-841'),
    (n) => n.some((x) => x.event_id === last.msgId), { timeoutMs: 60_000, what: 'the last message notified' });
  await sleep(WINDOW_MS + 1000);
  const ids = gateway.notifications('pk-841').map((n) => n.event_id);
  assert.equal(new Set(ids).size, ids.length, `no message notified twice: ${ids}`);
  // Every message before the kill is covered: a notification names it or a later one (coalesced).
  const seqs = gateway.notifications('pk-841').map((n) => n.devices[0].data.seqsync.seq);
  assert.ok(Math.max(...seqs) === last.seq && notes.length >= 2, `bursts before and after the kill: ${seqs}`);
  assert.equal(gateway.notifications('pk-841').at(-1).counts.unread, sent.length, 'the exact badge');
});
