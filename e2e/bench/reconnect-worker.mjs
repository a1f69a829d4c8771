// One worker process of scripts/bench-reconnect: holds its share of the library clients and runs
// the main process's commands (connect, freeze, expect, close) over IPC.
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { SeqsyncClient, MemoryStore } from '../../clients/js/src/index.js';
import { OUTPUT } from '../lib/app.mjs';
import { faultyWebSocket } from '../lib/clients.mjs';
import { mintToken } from '../lib/tokens.mjs';
import { pooledFetch } from './node-fetch.mjs';
import { messagesPath } from '../../clients/js/src/puller.js';

/**
 * The naive way: no handshake; on every reconnect, fetch every conversation the client is in (its
 * first connect, before the storm, is the library's, to set up the round quickly).
 */
class NaiveClient extends SeqsyncClient {
  async opened() {
    if (!this.armed) return super.opened();
    const round = (this.rounds = (this.rounds ?? 0) + 1);
    try {
      await Promise.all([...this.conversations.values()].map(async (conv) => {
        const page = await this.api.call('GET', messagesPath(conv.convId), { kind: 'fetch' }); // from the device cursor
        this.puller.take(conv, page, 'catchup');
        if (conv.missing()) await this.puller.pull(conv, 'catchup');
      }));
      if (round === this.rounds) this.connection.live();
    } catch (error) {
      if (round === this.rounds) this.connection.restart();
    }
  }

  frame(frame) {
    if (this.armed && frame.type === 'sync') return; // the naive way knows no handshake (nor its first screens)
    super.frame(frame);
  }
}

const network = faultyWebSocket();
const fetch = pooledFetch(64);
let baseUrl;
let secret;
let backoff;
let plan = [];
let stores = new Map();
let clients = [];
let expected = new Map(); // uid -> [[convId, seq]]

// Bytes received by each client: HTTP bodies and the socket's frames (payloads, without framing).
function counted(client) {
  client.bytes = 0;
  client.fetch = (url, init) => fetch(url, init).then((response) => { client.bytes += response.size; return response; });
  client.WebSocket = class extends network.WebSocket {
    set onmessage(listener) {
      super.onmessage = listener && ((event) => {
        client.bytes += Buffer.byteLength(String(event.data));
        listener(event);
      });
    }

    get onmessage() { return super.onmessage; }
  };
  return client;
}

function track(client) {
  client.timeline = { liveAt: [], openedAt: [], handshakeMs: [] };
  client.caughtUpMessages = 0;
  client.sockets = 0;
  let openedAt = 0;
  client.on('state', ({ state }) => {
    if (state === 'syncing' && client.armed) client.sockets += 1;
    const now = Date.now();
    if (state === 'syncing') openedAt = now;
    if (state === 'live') {
      client.timeline.liveAt.push(now);
      client.timeline.handshakeMs.push(now - openedAt);
    }
    check(client);
  });
  client.on('message', ({ convId, message, source }) => {
    if (client.armed && source !== 'push' && source !== 'sent') client.caughtUpMessages += 1;
    client.rendered(convId, message.seq);
    check(client);
  });
}

function check(client) {
  // Back means a handshake after the drop (a socket not yet seen closed does not count).
  if (client.caughtUpAt || !client.armed || client.state !== 'live' || client.timeline.liveAt.length === 0) return;
  for (const [convId, seq] of expected.get(client.uid) ?? []) {
    if (client.conversation(convId).tailEnd < seq) return;
  }
  client.caughtUpAt = Date.now();
}

let database;

/** The client's store: in memory, or its scope of this worker's SQLite file (made afresh per run). */
async function localStore(kind, uid) {
  if (kind === 'memory') return new MemoryStore();
  if (kind !== 'sqlite') throw new Error(`--store is sqlite or memory, not ${kind}`);
  if (!database) {
    // better-sqlite3 is the library's (optional) dependency, installed in clients/js, not here.
    const Database = createRequire(new URL('../../clients/js/package.json', import.meta.url))('better-sqlite3');
    // Beside the app's data (e2e/output), afresh per worker, removed when the main process ends the
    // worker (SIGTERM).
    mkdirSync(OUTPUT, { recursive: true });
    const file = join(OUTPUT, `reconnect-store-${process.pid}.sqlite`);
    const remove = () => { for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true }); };
    remove();
    database = new Database(file);
    database.pragma('journal_mode = WAL');
    process.once('SIGTERM', () => { database.close(); remove(); process.exit(0); });
  }
  const { SqliteStore } = await import('../../clients/js/src/sqlite-store.js');
  return new SqliteStore({ database, scope: String(uid) });
}

const commands = {
  async init(args) {
    ({ baseUrl, secret, backoff, clients: plan } = args);
    stores = new Map(await Promise.all(plan.map(async ({ uid, convs }) => {
      const store = await localStore(args.store, uid);
      // setup acked seq 1 (the group's notice) for every member
      for (const conv of convs) await store.saveCursor(conv, 1);
      return [uid, store];
    })));
    return {};
  },
  async connect({ mode, spreadMs }) {
    const Client = mode === 'naive' ? NaiveClient : SeqsyncClient;
    clients = plan.map(({ uid }) => {
      const meter = counted({});
      const client = new Client({
        baseUrl, token: mintToken(secret, uid, 'bench'), WebSocket: meter.WebSocket, fetch: meter.fetch, store: stores.get(uid),
        handshake: mode === 'stream' ? 'stream' : 'http', telemetry: false, backoff, ackIntervalMs: 500,
      });
      client.meter = meter;
      client.uid = uid;
      track(client);
      return client;
    });
    await Promise.all(clients.map((client, i) => new Promise((resolve) => setTimeout(resolve, (spreadMs * i) / clients.length))
      .then(() => client.connect())));
    await Promise.all(clients.map((client) => client.caughtUp()));
    return { connected: clients.length, rssMb: Math.round(process.memoryUsage().rss / 1e6) };
  },
  async refuse({ on }) {
    network.refuse = on; // connects fail at once, as against a port nobody listens on
    return {};
  },
  async freeze() {
    network.dropFrames = true; // pushes from now on are lost, as on a dying link
    return {};
  },
  async expect({ byUid }) {
    expected = new Map(Object.entries(byUid).map(([uid, list]) => [Number(uid), list]));
    return {};
  },
  async dropped() {
    network.dropFrames = false;
    for (const client of clients) {
      client.api.stats = new client.api.stats.constructor();
      client.timeline = { liveAt: [], openedAt: [], handshakeMs: [] };
      client.armed = true;
      client.caughtUpAt = 0;
      client.caughtUpMessages = 0;
      client.sockets = 0;
      client.meter.bytes = 0;
    }
    return {};
  },
  async await({ timeoutMs }) {
    const deadline = Date.now() + timeoutMs;
    while (clients.some((client) => !client.caughtUpAt) && Date.now() < deadline) {
      clients.forEach(check);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return {
      rssMb: Math.round(process.memoryUsage().rss / 1e6),
      clients: clients.map((client) => ({
        uid: client.uid, caughtUpAt: client.caughtUpAt, firstLiveAt: client.timeline.liveAt[0] ?? 0,
        handshakeMs: client.timeline.handshakeMs[0] ?? null, stats: client.api.stats, attempts: client.timeline.liveAt.length,
        hasNew: (expected.get(client.uid) ?? []).length > 0, sockets: client.sockets, bytes: client.meter.bytes,
        caughtUpMessages: client.caughtUpMessages,
      })),
    };
  },
  async close() {
    await Promise.all(clients.map((client) => client.close()));
    clients = [];
    return {};
  },
};

process.on('message', async ({ id, command, args }) => {
  try {
    process.send({ id, result: await commands[command](args ?? {}) });
  } catch (error) {
    process.send({ id, error: String(error?.stack ?? error) });
  }
});
process.send({ ready: true });
