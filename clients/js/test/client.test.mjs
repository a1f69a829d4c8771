// The client against a server played by the test: a socket the test opens and feeds frames, and a
// fetch that answers from a list of committed messages (or fails when told), so what the real
// server does only rarely (an HTTP handshake answered before the socket is subscribed, a 5xx on a
// fetch) happens every time; sends are committed as they arrive, or answered as the test says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore, SeqsyncClient } from '../src/index.js';

const CONV = 'd:1:2';
const message = (seq) => ({
  msgId: String(1000 + seq), convId: CONV, seq, senderId: '1', senderDevice: 'phone', clientMsgId: `c${seq}`,
  type: 'text', content: `m${seq}`, createTime: seq, recalled: false,
});
const token = (userId, deviceId) => `x.${Buffer.from(JSON.stringify({ sub: userId, did: deviceId })).toString('base64url')}.x`;
const json = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * One conversation's committed messages, served as API.md's fetch serves them (without `after`: from
 * this device's server cursor); `syncLatest` is the latest seq the HTTP handshake sees. Sends are
 * committed in the order they arrive (`sends`: each try's content), unless `answerSend(body)` answers
 * one otherwise (a Response, or a thrown network error).
 */
function fakeServer() {
  const server = { committed: [], syncLatest: 0, deviceCursor: 3, requests: [], failFetches: 0, sends: [], answeredAsync: [] };
  server.fetch = async (input, init = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    server.requests.push(`${method} ${url.pathname}${url.search}`);
    const latestSeq = server.committed.length;
    if (url.pathname === '/v1/sync') {
      const newer = server.syncLatest > (JSON.parse(init.body).cursors[CONV] ?? 0);
      const entry = { convId: CONV, latestSeq: server.syncLatest, deviceCursor: server.deviceCursor, readSeq: 0, unread: 0 };
      return json({ conversations: newer ? [entry] : [], serverTime: 0 });
    }
    if (url.pathname === `/v1/conversations/${encodeURIComponent(CONV)}/messages` && method === 'POST') {
      const body = JSON.parse(init.body);
      server.sends.push(body.content);
      const answer = (await server.answerSend?.(body)) ?? server.commit(body);
      if (init.headers?.prefer !== 'respond-async' || answer.status !== 200) return answer;
      server.answeredAsync.push(body.content); // in the topic: 202 without waiting for the seq
      return json({ msgId: null, convId: CONV, clientMsgId: body.clientMsgId, status: 'accepted' }, 202);
    }
    if (url.pathname === `/v1/conversations/${encodeURIComponent(CONV)}/messages`) {
      if (server.failFetches > 0) {
        server.failFetches -= 1;
        return json({ error: { code: 'internal', message: 'a failure that passes' } }, 500);
      }
      const query = url.searchParams;
      const page = query.has('last') ? server.committed.slice(-Number(query.get('last')))
        : server.committed.filter((m) => m.seq > Number(query.get('after') ?? server.deviceCursor) && m.seq <= Number(query.get('until') ?? latestSeq))
          .slice(0, Number(query.get('limit') ?? 50));
      return json({ messages: page, latestSeq, hasMore: page.length > 0 && page[0].seq > 1 });
    }
    if (method === 'POST') return json({}, 202); // acks
    return json({ error: { code: 'not_found', message: url.pathname } }, 404);
  };
  // A send committed (as user 1's phone), or answered as the duplicate of its original.
  server.commit = ({ clientMsgId, type, content }) => {
    const original = server.committed.find((m) => m.clientMsgId === clientMsgId);
    if (original) return json({ message: original, duplicate: true });
    const seq = server.committed.length + 1;
    server.committed.push({ ...message(seq), clientMsgId, type, content });
    return json({ message: server.committed.at(-1), duplicate: false });
  };
  return server;
}

/** A WebSocket the test drives: it opens, and receives frames, when the test says. */
function fakeSockets() {
  const sockets = [];
  class FakeWebSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      sockets.push(this);
    }

    open() {
      this.readyState = 1;
      this.onopen?.();
    }

    /** @param {object} frame */
    receive(frame) { this.onmessage?.({ data: JSON.stringify(frame) }); }

    send() {}

    close() { this.readyState = 3; }
  }
  return { sockets, WebSocket: FakeWebSocket };
}

async function until(check, what) {
  for (let waited = 0; !(await check()); waited += 5) {
    if (waited > 2_000) throw new Error(`not within 2 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A client whose device rendered and acked up to 3, rendering whatever it is handed; connected, its socket not open yet. */
async function renderingClient(server) {
  const store = new MemoryStore();
  await store.saveCursor(CONV, 3);
  const network = fakeSockets();
  const client = new SeqsyncClient({
    baseUrl: 'http://seqsync.test', token: token('2', 'laptop'), fetch: server.fetch, WebSocket: network.WebSocket,
    store, telemetry: false, ackIntervalMs: 10, backoff: { baseMs: 20, capMs: 50 }, handshake: 'http', // these test that path
  });
  const handed = [];
  client.on('message', ({ message: received }) => {
    handed.push(received.seq);
    client.rendered(CONV, received.seq);
  });
  client.on('error', () => {}); // the failed pull is reported; the test looks at what arrives
  await client.connect();
  return { client, store, socket: network.sockets[0], handed };
}

test('a pull that failed on a 5xx is tried again after a back-off, not left for the next push', async () => {
  const server = fakeServer();
  server.committed.push(message(1), message(2), message(3), message(4), message(5));
  server.syncLatest = 5;
  server.failFetches = 2;
  const { client, socket, handed } = await renderingClient(server);
  socket.open();
  await until(() => handed.length >= 2, 'seqs 4 and 5');
  await client.caughtUp();
  assert.deepEqual(handed, [4, 5]);
  assert.equal(server.requests.filter((r) => r.startsWith('GET')).length, 3, server.requests.join(', '));
  await client.close();
});

for (const order of ['after', 'before']) {
  test(`what the stream's handshake shows beyond an HTTP handshake answered too early is pulled (frame ${order} the answer)`, async () => {
    const server = fakeServer();
    server.committed.push(message(1), message(2), message(3));
    server.syncLatest = 3; // the HTTP handshake, computed before the server subscribed the socket to pushes
    const { client, store, socket, handed } = await renderingClient(server);
    // 4 and 5 committed and pushed before the subscription: this device never gets those pushes.
    // The stream's handshake, computed after it, shows them.
    const streamHandshake = { type: 'sync', conversations: [{ convId: CONV, latestSeq: 5, deviceCursor: 3, readSeq: 0, unread: 2 }] };
    if (order === 'before') {
      server.committed.push(message(4), message(5));
      socket.open();
      socket.receive(streamHandshake);
    } else {
      socket.open();
      await client.caughtUp();
      assert.deepEqual(server.requests, ['POST /v1/sync'], 'the HTTP handshake listed nothing to pull');
      server.committed.push(message(4), message(5));
      socket.receive(streamHandshake);
    }
    await until(() => handed.length >= 2, 'seqs 4 and 5');
    await client.caughtUp();
    assert.deepEqual(handed, [4, 5]);
    await until(async () => (await store.loadCursors())[CONV] === 5, 'the ack of 5');
    await client.close();
  });
}

/** User 1's phone, sending; its socket never opens (sends do not need it). */
async function sendingClient(server, { store = new MemoryStore(), fetch = server.fetch } = {}) {
  const client = new SeqsyncClient({
    baseUrl: 'http://seqsync.test', token: token('1', 'phone'), fetch, WebSocket: fakeSockets().WebSocket, store, telemetry: false,
  });
  client.on('error', () => {});
  return client;
}

const committedContents = (server) => server.committed.map((m) => m.content);

test('a send that got no answer is tried again before the ones made after it', async () => {
  const server = fakeServer();
  let tries = 0;
  server.answerSend = async ({ content }) => {
    if (content !== 'a') return undefined;
    tries += 1;
    if (tries === 1) throw new TypeError('fetch failed'); // lost on the way: never reached the server
    if (tries === 2) return json({ error: { code: 'internal', message: 'a failure that passes' } }, 500);
    return undefined;
  };
  const client = await sendingClient(server);
  await client.connect();
  const sends = ['a', 'b', 'c'].map((text) => client.send(CONV, text));
  await Promise.all(sends.map((pending) => pending.committed));
  assert.deepEqual(committedContents(server), ['a', 'b', 'c']);
  assert.deepEqual(server.sends, ['a', 'a', 'a', 'b', 'c'], 'b and c wait until a is accepted');
  assert.equal(new Set(server.committed.map((m) => m.clientMsgId)).size, 3);
  await client.close();
});

test('a send answered 202 is in the topic: the next one goes, and the accepted one learns its seq later', async () => {
  const server = fakeServer();
  let first = true;
  server.answerSend = async (body) => {
    if (body.content !== 'a' || !first) return undefined;
    first = false;
    server.commit(body); // committed, but not within the reply budget
    return json({ msgId: null, convId: CONV, clientMsgId: body.clientMsgId, status: 'accepted' }, 202);
  };
  const client = await sendingClient(server);
  await client.connect();
  const sends = ['a', 'b', 'c'].map((text) => client.send(CONV, text));
  const committed = await Promise.all(sends.map((pending) => pending.committed));
  assert.deepEqual(committed.map((m) => [m.content, m.seq]), [['a', 1], ['b', 2], ['c', 3]]);
  // a's seq came by the fetch that filled the gap below b's (or by asking again, had none come).
  assert.deepEqual(server.sends.slice(0, 3), ['a', 'b', 'c'], 'b went after the 202');
  await client.close();
});

test('the sends of a burst but its last are answered once in the topic; their seqs come with the fill below the last', async () => {
  const server = fakeServer();
  server.deviceCursor = 0;
  const client = await sendingClient(server);
  await client.connect();
  const sends = ['a', 'b', 'c', 'd'].map((text) => client.send(CONV, text));
  const committed = await Promise.all(sends.map((pending) => pending.committed));
  assert.deepEqual(committed.map((m) => [m.content, m.seq]), [['a', 1], ['b', 2], ['c', 3], ['d', 4]]);
  assert.deepEqual(server.answeredAsync, ['a', 'b', 'c']);
  assert.deepEqual(server.sends, ['a', 'b', 'c', 'd'], 'not asked again');
  await client.close();
});

test('a send refused for good fails, and the next one goes on', async () => {
  const server = fakeServer();
  const timeline = [];
  server.answerSend = async ({ content }) => {
    timeline.push(`sent ${content}`);
    await new Promise((resolve) => setTimeout(resolve, 30));
    timeline.push(`answered ${content}`);
    return content === 'too big' ? json({ error: { code: 'too_large', message: 'content over 65536 bytes' } }, 413) : undefined;
  };
  const client = await sendingClient(server);
  const failed = [];
  client.on('updated', ({ pending }) => { if (pending) failed.push(pending); });
  await client.connect();
  const [first, refused, next] = ['first', 'too big', 'next'].map((text) => client.send(CONV, text));
  await assert.rejects(refused.committed, (error) => error.status === 413 && error.code === 'too_large');
  await Promise.all([first.committed, next.committed]);
  assert.deepEqual(committedContents(server), ['first', 'next']);
  assert.deepEqual(failed.map((pending) => [pending.content, pending.status]), [['too big', 'failed']]);
  assert.deepEqual(timeline, ['sent first', 'answered first', 'sent too big', 'answered too big', 'sent next', 'answered next']);
  assert.deepEqual(client.pending(CONV), []);
  await client.close();
});

test('after a restart the stored sends go first, in the order they were made, whatever order the store returns', async () => {
  const server = fakeServer();
  // A store keyed by clientMsgId (as an IndexedDB object store would be) returns them in key order.
  const store = new MemoryStore();
  const loadOutbox = store.loadOutbox.bind(store);
  store.loadOutbox = async () => (await loadOutbox()).sort((a, b) => a.clientMsgId.localeCompare(b.clientMsgId));
  const texts = ['one', 'two', 'three', 'four', 'five', 'six'];
  const down = async () => json({ error: { code: 'internal', message: 'down' } }, 500);
  const before = await sendingClient(server, { store, fetch: down });
  await before.connect();
  for (const text of texts) before.send(CONV, text);
  await until(async () => (await store.loadOutbox()).length === texts.length, 'the outbox stored');
  await new Promise((resolve) => setTimeout(resolve, 50));
  await before.close(); // the app quits with every send pending

  const after = await sendingClient(server, { store });
  const connected = after.connect();
  const made = after.send(CONV, 'seven'); // made by this run before the outbox was read
  await connected;
  await made.committed;
  await until(() => server.committed.length === texts.length + 1, 'every send committed');
  assert.deepEqual(committedContents(server), [...texts, 'seven']);
  await until(async () => (await store.loadOutbox()).length === 0, 'every stored send settled');
  await after.close();
});

/**
 * A server whose handshake answers `total` conversations (g:1..g:total, each at latest seq 1) in
 * pages of `pageSize`, `limited` with a `next` token until the last; it counts the sync requests
 * in flight at once. The stream's first frame is the first page.
 */
function pagedServer(total, pageSize) {
  const server = { syncBodies: [], inFlight: 0, mostInFlight: 0 };
  const rows = Array.from({ length: total }, (_, i) => ({ convId: `g:${i + 1}`, latestSeq: 1, deviceCursor: 0, readSeq: 0, unread: 1 }));
  server.page = (next) => {
    const from = next === undefined ? 0 : Number(Buffer.from(next, 'base64url').toString());
    const to = Math.min(total, from + pageSize);
    const limited = to < total;
    return { conversations: rows.slice(from, to), serverTime: 0, limited, ...(limited ? { next: Buffer.from(String(to)).toString('base64url') } : {}) };
  };
  server.fetch = async (input, init = {}) => {
    const url = new URL(String(input));
    if (url.pathname === '/v1/sync') {
      const body = JSON.parse(init.body);
      server.syncBodies.push(body);
      server.inFlight += 1;
      server.mostInFlight = Math.max(server.mostInFlight, server.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      server.inFlight -= 1;
      return json(server.page(body.next));
    }
    const conv = decodeURIComponent(url.pathname.split('/')[3] ?? '');
    if (url.pathname.endsWith('/messages')) {
      const m = { ...message(1), convId: conv, msgId: `9${conv.slice(2)}`, senderId: '1' };
      return json({ messages: [m], latestSeq: 1, hasMore: false });
    }
    if ((init.method ?? 'GET') === 'POST') return json({}, 202);
    return json({ error: { code: 'not_found', message: url.pathname } }, 404);
  };
  return server;
}

for (const handshake of ['http', 'stream']) {
  test(`a limited handshake is followed page after page until the whole picture is in (${handshake})`, async () => {
    const server = pagedServer(7, 3);
    const network = fakeSockets();
    const client = new SeqsyncClient({
      baseUrl: 'http://seqsync.test', token: token('2', 'laptop'), fetch: server.fetch, WebSocket: network.WebSocket,
      store: new MemoryStore(), telemetry: false, handshake, backoff: { baseMs: 20, capMs: 50 },
    });
    client.on('error', () => {});
    const handed = new Set();
    client.on('message', ({ convId }) => handed.add(convId));
    await client.connect();
    network.sockets[0].open();
    if (handshake === 'stream') network.sockets[0].receive({ type: 'sync', ...server.page(undefined) });
    await client.caughtUp();

    await until(() => handed.size === 7, 'a message of each of the 7 conversations');
    assert.deepEqual([...handed].sort(), ['g:1', 'g:2', 'g:3', 'g:4', 'g:5', 'g:6', 'g:7']);
    const pages = handshake === 'http' ? [undefined, 'Mw', 'Ng'] : ['Mw', 'Ng'];
    assert.deepEqual(server.syncBodies.map((body) => body.next), pages, 'each page asked once, in order');
    assert.equal(server.mostInFlight, 1, 'one page after another');
    await client.close();
  });
}
