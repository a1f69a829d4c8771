// The local copy (local-copy.js) through the client, on a SqliteStore file reopened for each
// restart, against a server the test plays over fetch (its socket never opens: no push, so what
// arrives is what the client asked for): the list and a conversation shown from the store with
// the server away; a restart reconciled with the server (no seq handed twice, a recall applied);
// local messages cleared or past the retention, and the cursor never moving, nor acked past the
// server's cursor; a draft typed offline kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeqsyncClient } from '../src/index.js';
import { SqliteStore } from '../src/sqlite-store.js';

const CONV = 'g:7';
const DAY = 24 * 60 * 60 * 1000;
const folder = mkdtempSync(join(tmpdir(), 'seqsync-local-'));
test.after(() => rmSync(folder, { recursive: true, force: true }));

/** The server's side of one group: its committed messages, this device's cursor, the acks it took. */
class PlayedServer {
  constructor(count, { createTime = () => Date.now() } = {}) {
    this.messages = [];
    this.deviceCursor = 0;
    this.acks = [];
    this.requests = [];
    this.down = false;
    for (let i = 0; i < count; i += 1) this.commit(`m${i + 1}`, createTime(i + 1));
  }

  commit(content, createTime = Date.now(), type = 'text') {
    const seq = this.messages.length + 1;
    this.messages.push({ msgId: `id${seq}`, convId: CONV, seq, senderId: '2', senderDevice: 'x', clientMsgId: `c${seq}`, type,
      content, createTime, recalled: false });
  }

  recall(seq) {
    Object.assign(this.messages[seq - 1], { recalled: true, content: '[recalled]' });
    this.commit(String(seq), Date.now(), 'recall');
  }

  get latest() { return this.messages.length; }

  entry() {
    return { convId: CONV, latestSeq: this.latest, deviceCursor: this.deviceCursor, readSeq: 0, unread: 0, kind: 'group',
      name: 'Team', members: ['1', '2'], updatedAt: this.messages.at(-1)?.createTime ?? 0, lastMessage: this.messages.at(-1) };
  }

  fetch = async (input, init = {}) => {
    const url = new URL(String(input));
    const method = init.method ?? 'GET';
    this.requests.push(`${method} ${url.pathname}${url.search}`);
    if (this.down) throw new TypeError('fetch failed');
    const reply = (body, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const q = url.searchParams;
    if (url.pathname === '/v1/sync') return reply({ conversations: this.latest > this.deviceCursor ? [this.entry()] : [] });
    if (url.pathname === '/v1/conversations') return reply({ conversations: [this.entry()], next: null });
    if (url.pathname === `/v1/conversations/${encodeURIComponent(CONV)}`) return reply({ ...this.entry(), draft: null });
    if (url.pathname === `/v1/conversations/${encodeURIComponent(CONV)}/messages`) {
      let page;
      if (q.has('last')) page = this.messages.slice(-Number(q.get('last')));
      else if (q.has('before')) page = this.messages.filter((m) => m.seq < Number(q.get('before'))).slice(-Number(q.get('limit')));
      else {
        const after = Number(q.get('after') ?? this.deviceCursor);
        page = this.messages.filter((m) => m.seq > after && m.seq <= Number(q.get('until') ?? this.latest))
          .slice(0, Number(q.get('limit') ?? 50));
      }
      return reply({ messages: page, latestSeq: this.latest, hasMore: page.length > 0 && page[0].seq > 1 });
    }
    if (url.pathname === '/v1/acks') {
      for (const ack of JSON.parse(init.body).acks) {
        this.acks.push(ack.seq);
        this.deviceCursor = Math.max(this.deviceCursor, ack.seq);
      }
      return reply({}, 202);
    }
    return reply({}, 202); // telemetry
  };
}

/** A WebSocket that never opens: the tests drive everything over HTTP. */
class SilentSocket {
  readyState = 0;
  close() {}
}

/** A client of user 1 on a store reopened from `file`, rendering whatever it is handed, each seq counted. */
async function device(server, file, options = {}) {
  const store = new SqliteStore({ file });
  const client = new SeqsyncClient({
    baseUrl: 'http://seqsync.test', token: `x.${Buffer.from(JSON.stringify({ sub: '1', did: 'laptop' })).toString('base64url')}.x`,
    fetch: server.fetch, WebSocket: SilentSocket, store, telemetry: false, ackIntervalMs: 5, ...options,
  });
  client.api.maxAttempts = 1; // a server away fails at once
  const handed = [];
  client.on('message', ({ convId, message, source }) => {
    handed.push({ seq: message.seq, source, content: message.content });
    client.rendered(convId, message.seq);
  });
  client.on('error', () => {});
  await client.connect();
  const close = async () => {
    await client.close();
    store.close();
  };
  return { client, store, handed, close };
}

/** Opened, everything up to the latest rendered and acked, written; closed. */
async function readEverything(server, file, options) {
  const first = await device(server, file, options);
  await first.client.refreshList();
  await first.client.open(CONV);
  while ((await first.client.loadOlder(CONV)) > 0);
  await waitFor(() => server.deviceCursor === server.latest, 'the ack of the latest');
  await first.close();
  return first;
}

async function waitFor(check, what) {
  for (const deadline = Date.now() + 3000; !check();) {
    if (Date.now() > deadline) throw new Error(`not within 3 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('with the server away, a restarted client lists its conversations and opens one from the store at once', async () => {
  const server = new PlayedServer(30);
  const file = join(folder, 'away.db');
  await readEverything(server, file);
  server.down = true;
  const again = await device(server, file);
  assert.deepEqual(again.client.list().map((c) => [c.convId, c.name, c.lastMessage?.seq]), [[CONV, 'Team', 30]]);
  const requests = server.requests.length;
  const opening = again.client.open(CONV).catch((error) => error);
  // Before any answer: every stored message was handed over, from the store.
  await waitFor(() => again.handed.length === 30, 'the stored messages');
  assert.deepEqual(again.handed.map((m) => m.seq), Array.from({ length: 30 }, (_, i) => i + 1));
  assert.ok(again.handed.every((m) => m.source === 'store'));
  assert.equal((await opening).code, 'network', 'the activation could not reach the server');
  assert.equal(server.requests.length - requests, 1, 'one try of the activation, nothing else');
  assert.equal(await again.client.loadOlder(CONV), 0, 'nothing older anywhere');
  await again.close();
});

test('a restart reconciles the store with the server: new messages once, a recall applied, no seq handed twice', async () => {
  const server = new PlayedServer(25);
  const file = join(folder, 'reconcile.db');
  await readEverything(server, file);
  server.commit('new while away');
  server.recall(10);
  const again = await device(server, file);
  const updated = [];
  again.client.on('updated', ({ message }) => updated.push(message.seq));
  await again.client.open(CONV);
  const seqs = again.handed.map((m) => m.seq).sort((a, b) => a - b);
  assert.deepEqual(seqs, Array.from({ length: 27 }, (_, i) => i + 1), 'every seq once');
  assert.deepEqual(again.handed.filter((m) => m.source !== 'store').map((m) => m.seq), [26, 27], 'only the new from the server');
  assert.deepEqual(updated, [10]);
  assert.equal(again.client.messages(CONV)[9].recalled, true);
  await waitFor(() => server.deviceCursor === 27, 'the ack of the new ones');
  await again.close();
  // The recall reached the store: the next start shows it recalled from the first frame on.
  server.down = true;
  const third = await device(server, file);
  await third.client.open(CONV).catch(() => {});
  assert.equal(third.handed.find((m) => m.seq === 10).content, '[recalled]');
  await third.close();
});

test('cleared local messages come again from the server; the cursor never moves back nor is acked past the server\'s', async () => {
  const server = new PlayedServer(70);
  const file = join(folder, 'cleared.db');
  await readEverything(server, file);
  const cursor = server.deviceCursor;
  const again = await device(server, file);
  await again.client.open(CONV);
  await again.client.clearLocalMessages();
  assert.equal(again.client.messages(CONV).length, 0);
  assert.deepEqual(await again.store.loadCursors(), { [CONV]: cursor }, 'the stored cursor stays');
  assert.equal((await again.store.loadMessages(CONV, { limit: 100 })).length, 0);
  await again.close();

  const third = await device(server, file);
  await third.client.open(CONV);
  while ((await third.client.loadOlder(CONV)) > 0);
  assert.deepEqual(third.client.messages(CONV).map((m) => m.seq), Array.from({ length: 70 }, (_, i) => i + 1), 'fetched again');
  assert.ok(third.handed.every((m) => m.source !== 'store'));
  await new Promise((resolve) => setTimeout(resolve, 50)); // past the ack batch
  await third.client.reporter.flush();
  assert.ok(server.acks.every((seq) => seq === cursor), `acks ${server.acks}: none backwards, none past ${cursor}`);
  assert.equal(server.deviceCursor, cursor);
  assert.deepEqual(await third.store.loadCursors(), { [CONV]: cursor });
  await third.close();
});

test('messages past the retention are dropped at connect; the cursor stays and they are fetched again on scroll', async () => {
  const now = Date.now();
  // Seqs 1-40 are 40 days old, 41-60 a day old.
  const server = new PlayedServer(60, { createTime: (seq) => now - (seq <= 40 ? 40 : 1) * DAY });
  const file = join(folder, 'retention.db');
  await readEverything(server, file, { retentionDays: 365 });
  const again = await device(server, file, { retentionDays: 30 });
  assert.deepEqual((await again.store.loadMessages(CONV, { limit: 100 })).map((m) => m.seq),
    Array.from({ length: 20 }, (_, i) => i + 41), 'the last 30 days kept');
  assert.deepEqual(await again.store.loadCursors(), { [CONV]: 60 });
  server.down = true;
  await again.client.open(CONV).catch(() => {});
  assert.deepEqual(again.handed.map((m) => m.seq), Array.from({ length: 20 }, (_, i) => i + 41));
  server.down = false;
  assert.equal(await again.client.loadOlder(CONV), 40, 'the older page from the server');
  assert.equal((await again.store.loadMessages(CONV, { limit: 100 })).length, 20, 'and not kept');
  await again.client.reporter.flush();
  assert.ok(server.acks.every((seq) => seq === 60), `acks ${server.acks}`);
  await again.close();
});

test('a draft typed with the server away is kept, marked unsent, and shown after a restart', async () => {
  const server = new PlayedServer(3);
  const file = join(folder, 'draft.db');
  await readEverything(server, file);
  server.down = true;
  const typing = await device(server, file, { draftDelayMs: 1 });
  await typing.client.setDraft(CONV, 'half typed');
  await typing.close();
  const again = await device(server, file);
  assert.equal(again.client.list()[0].draft, 'half typed');
  assert.deepEqual(await again.store.loadDrafts(), { [CONV]: { text: 'half typed', synced: false } });
  assert.deepEqual([...again.client.local.unsyncedDrafts], [[CONV, 'half typed']], 'sent once the client is live');
  await again.close();
});
