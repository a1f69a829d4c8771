// seqsync-client (clients/js) against the real stack (the app jar, its embedded Kafka, PostgreSQL
// and Redis): the protocol cases the seeds warn about, each made real. On the shared 'plain' app
// (lib/app.mjs) under `npm test`; each test has conversations of its own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedApp } from '../lib/app.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { faultyWebSocket, libraryClient, range, recordingFetch, seqsOf } from '../lib/clients.mjs';
import { mintOperatorToken, mintToken } from '../lib/tokens.mjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryStore } from '../../clients/js/src/index.js';

const app = sharedApp('plain', 'client-protocol');
const open = [];
before(() => app.start(), { timeout: 240_000 });
after(async () => {
  await Promise.all(open.map((client) => client.close()));
  await app.stop();
});

function client(...args) {
  const made = libraryClient(app, ...args);
  open.push(made);
  return made;
}

const serverCursor = async (caller, convId) => (await caller.activation(convId)).deviceCursor;
const fetches = (recorder) => recorder.requests.filter((r) => r.method === 'GET' && r.url.pathname.endsWith('/messages'));

test('a device back after 120 messages gets the newest 20 from the sync frame, pages back in order, each once, and acks the last', async () => {
  const conv = 'd:101:102';
  const alice = new Caller(app, 101, 'phone');
  const bobOnLaptop = new Caller(app, 102, 'laptop');
  await alice.send(conv, 'before');
  const store = new MemoryStore();
  const first = client(102, 'laptop', { store });
  await first.connect();
  await first.caughtUp();
  await eventually(() => serverCursor(bobOnLaptop, conv), (seq) => seq === 1, { what: 'ack of seq 1' });
  await first.close();

  await alice.sendMany(conv, 120, 'm');
  const fetch = recordingFetch();
  const again = client(102, 'laptop', { store, fetch });
  await again.connect();
  await again.caughtUp();
  assert.deepEqual(seqsOf(again, conv), range(102, 121), 'the first screen, carried by the sync frame');
  assert.ok(again.received.every((event) => event.source === 'catchup'));
  assert.equal(fetches(fetch).length, 0);
  assert.equal(await again.loadOlder(conv), 50);
  assert.equal(await again.loadOlder(conv), 50);
  assert.deepEqual(again.messages(conv).map((m) => m.seq), range(2, 121));
  assert.deepEqual(seqsOf(again, conv).sort((a, b) => a - b), range(2, 121), 'each once');
  const pages = fetches(fetch);
  assert.deepEqual(pages.map((r) => r.url.search), ['?before=102&limit=50', '?before=52&limit=50']);
  await eventually(() => serverCursor(bobOnLaptop, conv), (seq) => seq === 121, { what: 'ack of seq 121' });
});

test('a push after one the socket lost shows a seq jump, filled at once by a range fetch', async () => {
  const conv = 'd:111:112';
  const alice = new Caller(app, 111, 'phone');
  await alice.send(conv, 'one');
  const network = faultyWebSocket();
  const fetch = recordingFetch();
  const bob = client(112, 'laptop', { WebSocket: network.WebSocket, fetch });
  await bob.connect();
  await bob.caughtUp();
  await eventually(async () => seqsOf(bob, conv), (seqs) => seqs.length === 1, { what: 'seq 1' });
  const fetchesBefore = fetches(fetch).length;

  network.dropFrames = true;
  await alice.send(conv, 'two');             // pushed, never received
  await eventually(async () => network.dropped, (n) => n >= 1, { what: 'the lost push' });
  network.dropFrames = false;
  await alice.send(conv, 'three');           // pushed: seq 3 after seq 1
  await eventually(async () => seqsOf(bob, conv), (seqs) => seqs.length === 3, { what: 'seqs 2 and 3' });

  assert.deepEqual(seqsOf(bob, conv), [1, 2, 3]);
  assert.deepEqual(bob.received.filter((e) => e.convId === conv).map((e) => e.source).slice(1), ['fill', 'push']);
  const fills = fetches(fetch).slice(fetchesBefore);
  assert.equal(fills.length, 1);
  assert.equal(fills[0].url.searchParams.get('after'), '1');
  assert.equal(fills[0].url.searchParams.get('until'), '3');
});

test('a socket cut mid-stream reconnects and loses and duplicates nothing', async () => {
  const conv = 'd:121:122';
  const alice = new Caller(app, 121, 'phone');
  const network = faultyWebSocket();
  const bob = client(122, 'laptop', { WebSocket: network.WebSocket, backoff: { baseMs: 200, capMs: 1000 } });
  const states = [];
  bob.on('state', ({ state }) => states.push(state));
  await bob.connect();
  await bob.caughtUp();
  let sent = 0;
  const sending = (async () => {
    for (let i = 1; i <= 60; i += 1) {
      await alice.send(conv, `m${i}`);
      sent = i;
    }
  })();
  await eventually(async () => seqsOf(bob, conv).length, (n) => n >= 10, { what: '10 pushed' });
  network.refuse = true;
  network.cut();
  const cutAt = sent;
  await eventually(async () => sent, (n) => n >= cutAt + 5, { what: '5 more sent while it is down' });
  network.refuse = false;
  await sending;
  await eventually(async () => seqsOf(bob, conv).length, (n) => n >= 60, { what: 'all 60' });
  await bob.caughtUp();
  assert.deepEqual(seqsOf(bob, conv), range(1, 60));
  assert.ok(states.includes('reconnecting'), states.join(' '));
  assert.ok(bob.received.some((e) => e.convId === conv && e.source !== 'push'), 'some were pulled after the cut');
  await eventually(() => serverCursor(new Caller(app, 122, 'laptop'), conv), (seq) => seq === 60, { what: 'ack of 60' });
});

test('an ack that never reached the server is sent again when the conversation is activated', async () => {
  const conv = 'd:131:132';
  const alice = new Caller(app, 131, 'phone');
  const bobOnLaptop = new Caller(app, 132, 'laptop');
  await alice.sendMany(conv, 5, 'm', 1);
  const store = new MemoryStore();
  const lossy = recordingFetch((request, send) => {
    if (request.url.pathname === '/v1/acks') throw new TypeError('network lost'); // the ack never arrives
    return send();
  });
  const first = client(132, 'laptop', { store, fetch: lossy });
  await first.connect();
  await first.caughtUp();
  await eventually(async () => (await store.loadCursors())[conv], (seq) => seq === 5, { what: 'local cursor 5' });
  await first.close();
  assert.equal(await serverCursor(bobOnLaptop, conv), 0, 'the server never got the ack');

  // Restarted on the same store: the HTTP handshake, sent with cursor 5, lists nothing to pull (the
  // stream's own handshake, compared with the server's cursor, would send the ack again at once).
  const fetch = recordingFetch();
  const again = client(132, 'laptop', { store, fetch, handshake: 'http' });
  await again.connect();
  await again.caughtUp();
  assert.equal(fetches(fetch).length, 0, 'nothing re-fetched');
  assert.equal(fetch.requests.filter((r) => r.url.pathname === '/v1/acks').length, 0);
  await again.open(conv);
  const acks = fetch.requests.filter((r) => r.url.pathname === '/v1/acks');
  assert.deepEqual(acks.map((r) => r.body.acks), [[{ convId: conv, seq: 5 }]]);
  await eventually(() => serverCursor(bobOnLaptop, conv), (seq) => seq === 5, { what: 'corrected cursor' });
});

test('a send whose answer was lost is retried with the same clientMsgId and appears once', async () => {
  const conv = 'd:141:142';
  let lose = true;
  const fetch = recordingFetch(async (request, send) => {
    const response = await send();
    if (lose && request.method === 'POST' && request.url.pathname.endsWith('/messages')) {
      lose = false;
      throw new TypeError('connection reset before the answer'); // the server got it; we never hear back
    }
    return response;
  });
  const network = faultyWebSocket(); // alice's own push of it is lost too: only the retry can tell her its seq
  const alice = client(141, 'phone', { fetch, WebSocket: network.WebSocket });
  const bob = client(142, 'laptop');
  await Promise.all([alice.connect(), bob.connect()]);
  await Promise.all([alice.caughtUp(), bob.caughtUp()]);
  network.dropFrames = true;
  const pending = alice.send(conv, 'exactly once');
  assert.equal(pending.status, 'pending');
  const committed = await pending.committed;
  network.dropFrames = false;
  assert.equal(committed.seq, 1);
  const sends = fetch.requests.filter((r) => r.method === 'POST' && r.url.pathname.endsWith('/messages'));
  assert.ok(sends.length >= 2);
  assert.equal(new Set(sends.map((r) => r.body.clientMsgId)).size, 1, 'one clientMsgId across retries');
  const page = await new Caller(app, 142, 'laptop').page(conv, { last: 20 });
  assert.deepEqual(page.messages.map((m) => m.content), ['exactly once']);
  await eventually(async () => seqsOf(bob, conv), (seqs) => seqs.length === 1, { what: 'bob got it' });
  await alice.send(conv, 'next').committed;
  await eventually(async () => seqsOf(bob, conv), (seqs) => seqs.length === 2, { what: 'bob got the next' });
  assert.deepEqual(seqsOf(bob, conv), [1, 2]);
  assert.deepEqual(seqsOf(alice, conv), [1, 2]);
});

test('a message the app cannot render is skipped, reported, and the ack moves past it', async () => {
  const conv = 'd:151:152';
  const alice = new Caller(app, 151, 'phone');
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const figures = async () => (await fetch(`${app.baseUrl}/ops/delivery?from=${today}&to=${tomorrow}`,
    { headers: { authorization: `Bearer ${mintOperatorToken(app.secret)}` } })).json();
  const failedBefore = (await figures()).cases?.render_failed ?? 0;
  const bob = client(152, 'laptop', {
    renderer: (message) => { if (message.type === 'image') JSON.parse(message.content); }, // images are JSON: {url, width, height}
  });
  await bob.connect();
  await bob.caughtUp();
  await alice.send(conv, 'hello');
  await alice.send(conv, '{not json', { type: 'image' });
  await alice.send(conv, 'still here');
  await eventually(async () => seqsOf(bob, conv), (seqs) => seqs.length === 3, { what: 'three messages' });
  await eventually(() => serverCursor(new Caller(app, 152, 'laptop'), conv), (seq) => seq === 3, { what: 'ack past the bad one' });
  const reported = await eventually(figures, (f) => (f.cases?.render_failed ?? 0) > failedBefore, { what: 'the failure recorded' });
  assert.equal(reported.cases.render_failed, failedBefore + 1);
});

test('a cursor ahead of the server (dirty local data) realigns to the latest seq', async () => {
  const conv = 'd:161:162';
  const alice = new Caller(app, 161, 'phone');
  await alice.sendMany(conv, 3, 'm', 1);
  const store = new MemoryStore();
  await store.saveCursor(conv, 500);
  const bob = client(162, 'laptop', { store });
  await bob.connect();
  await bob.caughtUp();
  const cursors = [];
  const saveCursor = store.saveCursor.bind(store);
  store.saveCursor = async (convId, seq) => { cursors.push(seq); return saveCursor(convId, seq); };
  await bob.open(conv);
  await eventually(async () => (await store.loadCursors())[conv], (seq) => seq === 3, { what: 'local cursor realigned' });
  assert.ok(cursors.every((seq) => seq <= 3), cursors.join(' '));
  await alice.send(conv, 'after the realign');
  await eventually(async () => seqsOf(bob, conv), (seqs) => seqs.includes(4), { what: 'seq 4' });
  assert.deepEqual(seqsOf(bob, conv), [1, 2, 3, 4]);
  await eventually(() => serverCursor(new Caller(app, 162, 'laptop'), conv), (seq) => seq === 4, { what: 'ack 4' });
});

test('a device over its fetch bucket is told 429 with Retry-After, waits it, and gets every answer', async () => {
  const conv = 'd:171:172';
  await new Caller(app, 171, 'phone').send(conv, 'one');
  const bob = client(172, 'laptop');
  // More at once than the device's bucket holds (fetch.burst, 200 by default): the server refuses some.
  const pages = await Promise.all(Array.from({ length: 300 }, () =>
    bob.api.call('GET', `/v1/conversations/${conv}/messages`, { kind: 'fetch', query: { last: 1 } })));
  assert.ok(pages.every((page) => page.messages[0].content === 'one'));
  assert.ok(bob.api.stats.rateLimited > 0, JSON.stringify(bob.api.stats));
});

test('a socket whose token expires is closed; the client goes on with a token from getToken(), losing and doubling nothing', async () => {
  const conv = 'd:191:192';
  const alice = new Caller(app, 191, 'phone');
  let renewals = 0;
  const bob = client(192, 'laptop', {
    // Past the 5 s the client renews ahead of a connect, so the first socket is closed by the server at expiry.
    token: mintToken(app.secret, 192, 'laptop', 8),
    getToken: async () => {
      renewals += 1;
      return mintToken(app.secret, 192, 'laptop', 3600);
    },
  });
  const states = [];
  bob.on('state', ({ state }) => states.push(state));
  await bob.connect();
  await bob.caughtUp();
  for (let i = 1; i <= 30; i += 1) { // 9 s or more: across the first token's expiry
    await alice.send(conv, `m${i}`);
    await sleep(300);
  }
  await eventually(() => seqsOf(bob, conv), (seqs) => seqs.length >= 30, { what: 'all 30 at bob', timeoutMs: 20_000 });
  await bob.caughtUp();
  assert.deepEqual(seqsOf(bob, conv), range(1, 30));
  assert.equal(renewals, 1, 'one renewal, shared by the socket and the requests that found the token expired');
  assert.ok(states.includes('reconnecting'), `the server closed the socket at expiry: ${states.join(' ')}`);
  await eventually(() => serverCursor(new Caller(app, 192, 'laptop'), conv), (seq) => seq === 30, { what: 'ack of seq 30' });
});
