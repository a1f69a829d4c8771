// Catch-up in one round trip (issue 40) against the real stack: the stream's `sync` frame carries
// each conversation's first screen (the newest 20 the device lacks, `limited` when older unseen ones
// remain), so a device a few messages behind in each conversation makes no request beyond the
// socket; one far behind gets the newest 20 and pages back on demand; a device behind in more
// conversations than an answer carries screens for gets a bounded answer and fetches the rest; a
// stopping app tells its sockets when to come back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { App } from '../lib/app.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { libraryClient, range, recordingFetch, seqsOf } from '../lib/clients.mjs';
import { mintToken } from '../lib/tokens.mjs';
import { MemoryStore } from '../../clients/js/src/index.js';

const SCREENS = 6; // conversations an answer carries screens for
const app = new App({ name: 'catchup', env: { SEQSYNC_SYNC_SCREEN_CONVERSATIONS: String(SCREENS) } });
const open = [];
before(() => app.start(), { timeout: 240_000 });
after(async () => {
  await Promise.all(open.map((client) => client.close()));
  await app.stop();
});

/** User `user`'s laptop, caught up with one message from each sender and its acks stored; its store kept. */
async function caughtUpDevice(user, senders) {
  for (const sender of senders) await new Caller(app, sender, 'phone').send(`d:${user}:${sender}`, 'hello');
  const store = new MemoryStore();
  const client = libraryClient(app, user, 'laptop', { store });
  await client.connect();
  await client.caughtUp();
  await eventually(() => client.received.length, (n) => n === senders.length, { what: 'the first messages' });
  await client.close();
  const laptop = new Caller(app, user, 'laptop');
  await eventually(async () => (await laptop.call('POST', '/v1/sync', {})).conversations.length, (n) => n === 0,
    { what: 'the acks stored' });
  return store;
}

/** The requests a client made for messages or handshakes (acks and reports are not asked for). */
function asked(fetch) {
  return fetch.requests.filter((r) => r.method === 'GET' || r.url.pathname === '/v1/sync')
    .map((r) => `${r.method} ${r.url.pathname}${r.url.search}`);
}

test('5 conversations with up to 20 new messages each are caught up from the sync frame alone', async () => {
  const user = 601;
  const senders = [611, 612, 613, 614, 615];
  const store = await caughtUpDevice(user, senders);
  const news = [3, 8, 12, 20, 20];
  await Promise.all(senders.map((sender, i) => new Caller(app, sender, 'phone').sendMany(`d:${user}:${sender}`, news[i], 'new ', 4)));

  const fetch = recordingFetch();
  const client = libraryClient(app, user, 'laptop', { store, fetch });
  open.push(client);
  await client.connect();
  await client.caughtUp();
  senders.forEach((sender, i) => assert.deepEqual(seqsOf(client, `d:${user}:${sender}`), range(2, 1 + news[i])));
  assert.deepEqual(asked(fetch), [], 'no request beyond the socket');
  assert.ok(client.received.every((event) => event.source === 'catchup'));
});

test('a device 500 messages behind gets the newest 20, then pages of 50 back on demand', async () => {
  const user = 621;
  const sender = 622;
  const conv = `d:${user}:${sender}`;
  const store = await caughtUpDevice(user, [sender]);
  await new Caller(app, sender, 'phone').sendMany(conv, 500, 'late ', 16);

  const fetch = recordingFetch();
  const client = libraryClient(app, user, 'laptop', { store, fetch });
  open.push(client);
  await client.connect();
  await client.caughtUp();
  assert.deepEqual(seqsOf(client, conv), range(482, 501), 'the newest 20');
  assert.deepEqual(asked(fetch), []);
  assert.equal(client.conversation(conv).hasOlder, true, 'older unseen ones remain');

  assert.equal(await client.loadOlder(conv), 50);
  assert.deepEqual(client.messages(conv).map((m) => m.seq), range(432, 501));
  assert.deepEqual(asked(fetch), [`GET /v1/conversations/${encodeURIComponent(conv)}/messages?before=482&limit=50`]);
  assert.equal(await client.loadOlder(conv), 50);
  assert.equal(client.messages(conv)[0].seq, 382);
});

test('a device behind in more conversations than an answer carries screens for gets a bounded answer and fetches the rest', async () => {
  const user = 631;
  const senders = Array.from({ length: SCREENS + 2 }, (_, i) => 640 + i);
  const store = await caughtUpDevice(user, senders);
  for (const sender of senders) await new Caller(app, sender, 'phone').sendMany(`d:${user}:${sender}`, 2, 'more ', 2);

  const answer = await new Caller(app, user, 'laptop').call('POST', '/v1/sync', {});
  assert.equal(answer.conversations.length, senders.length);
  const carried = answer.conversations.filter((entry) => Array.isArray(entry.messages));
  assert.equal(carried.length, SCREENS, 'screens for the most recently active only');
  for (const entry of carried) {
    assert.deepEqual(entry.messages.map((m) => m.seq), [2, 3]);
    assert.equal(entry.limited, false);
  }
  assert.ok(answer.conversations.filter((entry) => !carried.includes(entry)).every((entry) => entry.limited === undefined));

  const fetch = recordingFetch();
  const client = libraryClient(app, user, 'laptop', { store, fetch });
  open.push(client);
  await client.connect();
  await client.caughtUp();
  for (const sender of senders) assert.deepEqual(seqsOf(client, `d:${user}:${sender}`), [2, 3]);
  assert.equal(asked(fetch).length, 2, 'a fetch for each conversation without a screen');
});

test('a stopping app tells its sockets when to come back (1012, spread over a window)', async () => {
  const socket = new WebSocket(`${app.baseUrl.replace(/^http/, 'ws')}/v1/stream?access_token=${mintToken(app.secret, 651, 'laptop')}`);
  const frames = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  const closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await eventually(() => frames.length, (n) => n > 0, { what: 'the sync frame' });
  await app.stop();
  const { code, reason } = await closed;
  assert.equal(code, 1012);
  assert.equal(reason, 'restarting');
  const hint = frames.find((frame) => frame.type === 'reconnect');
  assert.deepEqual({ ...hint, spreadMs: hint.spreadMs >= 1000 }, { type: 'reconnect', reason: 'restarting', afterMs: 0, spreadMs: true });
});
