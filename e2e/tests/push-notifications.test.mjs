// Push notifications (docs/api.md, "Push notifications") against the real app and a real gateway
// on loopback that records what it receives: one notification per coalesced burst with the exact
// badge, a read on another device updating it, a muted conversation sending none, a failing
// gateway retried then dead-lettered, and a kill -9 mid-burst that loses none and repeats none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { App, sleep } from '../lib/app.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { PushGateway } from '../lib/push-gateway.mjs';

const WINDOW_MS = 1500;
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
  const sent = [];
  for (let i = 1; i <= 5; i++) sent.push((await bob.send(conv, `burst ${i}`)).message);
  const [first] = await eventually(async () => gateway.notifications('pk-811'), (n) => n.length >= 1,
    { what: 'the burst notification' });
  await sleep(WINDOW_MS + 1000);
  assert.equal(gateway.notifications('pk-811').length, 1, 'one notification for the burst');
  assert.equal(first.room_id, conv);
  assert.equal(first.sender, '812');
  assert.equal(first.event_id, sent[4].msgId, 'the burst\'s latest message');
  assert.equal(first.content.body, 'burst 5');
  assert.equal(first.counts.unread, 5, 'the badge counts every unread message');
  assert.equal(first.devices[0].data.seqsync.seq, sent[4].seq);

  await new Caller(app, 811, 'tablet').call('POST', '/v1/reads', { convId: conv, seq: sent[2].seq });
  const update = await eventually(async () => gateway.notifications('pk-811'), (n) => n.length >= 2,
    { what: 'the badge update' });
  assert.equal(update[1].event_id, undefined, 'a badge update names no message');
  assert.equal(update[1].counts.unread, 2, 'read up to the third of five: two left');
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

test('kill -9 mid-burst: every message is notified at least once, none twice', { timeout: 240_000 }, async () => {
  await pusher(841, 'phone', 'pk-841');
  const sender = new Caller(app, 842, 'laptop');
  const conv = 'd:841:842';
  const sent = [];
  for (let i = 1; i <= 12; i++) {
    sent.push((await sender.send(conv, `before ${i}`)).message);
    await sleep(150);
  }
  await app.kill();
  await app.start();
  for (let i = 1; i <= 6; i++) {
    sent.push((await sender.send(conv, `after ${i}`)).message);
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
