// scripts/bench-reconnect: a reconnect storm. N library clients (seqsync-client in Node, spread
// over worker processes), each a member of 5-20 groups; their pushes are lost and messages wait in
// a share of the groups; the app is restarted (every connection dropped at once); measured from
// the moment it answers again until every client is back and has every waiting message. The same
// clients in the same run, three ways: the naive way (fetch every conversation on reconnect), the
// library's HTTP handshake (POST /v1/sync, then fetch what it lists), and the handshake the stream
// sends first (no request; then fetch what it lists).
import { fork } from 'node:child_process';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { App, sleep } from '../lib/app.mjs';
import { mintToken } from '../lib/tokens.mjs';
import { parseArgs } from './args.mjs';
import { pooledFetch } from './node-fetch.mjs';

const options = parseArgs(process.argv.slice(2), {
  clients: 2000, workers: 4, 'min-convs': 5, 'max-convs': 20, 'group-size': 50, 'new-fraction': 0.1,
  modes: 'naive,http,stream', seed: 7, 'spread-ms': 10000, 'timeout-ms': 120000, 'cap-ms': 0,
  // sqlite: each worker's clients keep their local copy in one SQLite file (SqliteStore), as a Node
  // app would; memory: MemoryStore, for comparison.
  store: 'sqlite',
});
const random = mulberry32(options.seed);
const fetch = pooledFetch(32);
const log = (...args) => console.error(new Date().toISOString().slice(11, 23), ...args);

// The plan: each client in k groups, k uniform in [min, max]; groups of about group-size members.
const uids = Array.from({ length: options.clients }, (_, i) => 1_000_001 + i);
const wanted = uids.map(() => options['min-convs'] + Math.floor(random() * (options['max-convs'] - options['min-convs'] + 1)));
const groupCount = Math.ceil(wanted.reduce((a, b) => a + b, 0) / options['group-size']);
const members = Array.from({ length: groupCount }, () => []);
uids.forEach((uid, i) => {
  const chosen = new Set();
  while (chosen.size < wanted[i]) chosen.add(Math.floor(random() * groupCount));
  for (const g of chosen) members[g].push(uid);
});

const app = new App({ name: 'bench-reconnect' });
const workers = [];
try {
  log(`starting the app; ${options.clients} clients in ${groupCount} groups (${wanted.reduce((a, b) => a + b, 0)} memberships)`);
  await app.start();
  const groups = await createGroups();
  await ackEverything(groups);
  const byUid = new Map(uids.map((uid) => [uid, []]));
  groups.forEach((group) => group.members.forEach((uid) => byUid.get(uid).push(group.convId)));
  await startWorkers(byUid);
  const results = [];
  for (const mode of options.modes.split(',')) results.push(await round(mode, groups, byUid));
  console.log(JSON.stringify({ options, groups: groupCount, uptime: execSync('uptime').toString().trim(), results }, null, 2));
} finally {
  for (const worker of workers) worker.kill();
  await app.stop();
}

async function round(mode, groups, byUid) {
  log(`${mode}: connecting ${options.clients} clients`);
  const connected = await all('connect', { mode, spreadMs: options['spread-ms'] });
  log(`${mode}: connected (worker RSS ${connected.map((c) => c.rssMb).join(', ')} MB)`);
  await all('freeze');
  // Messages wait in a share of the groups: one each, sent by the owner, never pushed to anyone.
  const chosen = groups.filter(() => random() < options['new-fraction']);
  await parallel(chosen, 16, async (group) => {
    const answer = await call('POST', `/v1/conversations/${group.convId}/messages`, group.owner,
      { clientMsgId: `bench-${mode}-${group.convId}`, type: 'text', content: `while you were away (${mode})` });
    group.latest = answer.message.seq;
  });
  const expect = {};
  for (const group of chosen) for (const uid of group.members) (expect[uid] ??= []).push([group.convId, group.latest]);
  const withNew = Object.keys(expect).length;
  const newPairs = Object.values(expect).reduce((total, list) => total + list.length, 0);
  await spread('expect', (slice) => ({ byUid: Object.fromEntries(slice.map((uid) => [uid, expect[uid] ?? []])) }));
  log(`${mode}: ${chosen.length} groups have a message waiting, for ${withNew} clients; restarting the app`);
  // Until the app answers its health check, the clients' connects fail as against a closed port
  // (their back-off grows meanwhile): the storm starts when the app is up, not during its start.
  await all('refuse', { on: true });
  await app.stop();
  await all('dropped');
  await app.start();
  const upAt = Date.now();
  await all('refuse', { on: false });
  log(`${mode}: the app answers again; waiting for every client`);
  const reports = (await all('await', { timeoutMs: options['timeout-ms'] })).flatMap((report) => report.clients);
  const result = summarize(mode, reports, upAt, withNew, newPairs, connected);
  log(`${mode}:`, JSON.stringify(result));
  await all('close');
  return result;
}

function summarize(mode, reports, upAt, withNew, newPairs, connected) {
  const caught = reports.filter((r) => r.caughtUpAt > 0);
  const sum = (pick) => reports.reduce((total, r) => total + pick(r), 0);
  const asked = (r) => (r.stats.byKind.sync ?? 0) + (r.stats.byKind.fetch ?? 0) + (r.stats.byKind['first-screen'] ?? 0);
  const requests = sum(asked);
  // Of the clients with something new: their sockets that got to a handshake count as one request each.
  const withNewReports = reports.filter((r) => r.hasNew);
  const withNewRequests = withNewReports.reduce((total, r) => total + asked(r) + r.sockets, 0);
  const messages = sum((r) => r.caughtUpMessages);
  const handshakes = reports.map((r) => r.handshakeMs).filter((ms) => ms !== null).sort((a, b) => a - b);
  return {
    mode,
    clients: reports.length,
    clientsWithSomethingNew: withNew,
    // The floor for any client: one fetch per conversation with something new.
    conversationsWithSomethingNewPerSuchClient: round2(newPairs / Math.max(1, withNew)),
    caughtUp: caught.length,
    allCaughtUpMs: caught.length === reports.length ? Math.max(...caught.map((r) => r.caughtUpAt)) - upAt : null,
    caughtUpMs: percentiles(caught.map((r) => r.caughtUpAt - upAt).sort((a, b) => a - b)),
    handshakeMs: percentiles(handshakes),
    // When each client was first live again, from the moment the app answered: how the reconnects spread.
    firstLiveMs: percentiles(reports.filter((r) => r.firstLiveAt > 0).map((r) => r.firstLiveAt - upAt).sort((a, b) => a - b)),
    requests: { handshakeAndFetch: requests, perClient: round2(requests / reports.length), perClientWithSomethingNew: round2(requests / Math.max(1, withNew)),
      sync: sum((r) => r.stats.byKind.sync ?? 0), fetch: sum((r) => (r.stats.byKind.fetch ?? 0) + (r.stats.byKind['first-screen'] ?? 0)),
      acks: sum((r) => r.stats.byKind.ack ?? 0) },
    // The socket counted as a request (issue 40's goal: at most 1.1).
    requestsWithSocketPerClientWithSomethingNew: round2(withNewRequests / Math.max(1, withNewReports.length)),
    // Messages caught up (from sync frames and fetches) per request, the sockets counted.
    messagesPerRequest: round2(messages / Math.max(1, requests + sum((r) => r.sockets))),
    bytesPerClient: { all: Math.round(sum((r) => r.bytes) / Math.max(1, reports.length)),
      withSomethingNew: Math.round(withNewReports.reduce((total, r) => total + r.bytes, 0) / Math.max(1, withNewReports.length)) },
    status429: sum((r) => r.stats.rateLimited),
    status503: sum((r) => r.stats.overloaded),
    networkFailures: sum((r) => r.stats.failed),
    // Handshakes completed per client: more than 1 means sockets were dropped again during the catch-up.
    handshakesPerClient: round2(sum((r) => r.attempts) / reports.length),
    workerRssMb: connected.map((c) => c.rssMb),
  };
}

async function createGroups() {
  const groups = members.map((list, i) => ({ index: i, members: list, owner: list[0] })).filter((g) => g.members.length >= 2);
  log(`creating ${groups.length} groups`);
  await parallel(groups, 16, async (group) => {
    const created = await call('POST', '/v1/groups', group.owner, { name: `bench ${group.index}`, members: group.members.slice(1).map(String) });
    group.convId = created.convId;
  });
  return groups;
}

async function ackEverything(groups) {
  const byUid = new Map();
  for (const group of groups) for (const uid of group.members) (byUid.get(uid) ?? byUid.set(uid, []).get(uid)).push({ convId: group.convId, seq: 1 });
  log(`acking the groups' first notice for ${byUid.size} clients`);
  await parallel([...byUid], 32, ([uid, acks]) => call('POST', '/v1/acks', uid, { acks }));
}

async function startWorkers(byUid) {
  const script = fileURLToPath(new URL('./reconnect-worker.mjs', import.meta.url));
  const backoff = options['cap-ms'] > 0 ? { capMs: options['cap-ms'] } : undefined;
  for (let w = 0; w < options.workers; w += 1) {
    const slice = uids.filter((_, i) => i % options.workers === w);
    const worker = fork(script, [], { execArgv: ['--max-old-space-size=2048'] });
    worker.slice = slice;
    worker.pending = new Map();
    worker.next = 0;
    worker.on('message', (message) => {
      if (message.ready) return;
      const waiter = worker.pending.get(message.id);
      worker.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error));
      else waiter.resolve(message.result);
    });
    await new Promise((resolve) => worker.once('message', resolve));
    workers.push(worker);
    await ask(worker, 'init', { baseUrl: app.baseUrl, secret: app.secret, backoff, store: options.store,
      clients: slice.map((uid) => ({ uid, convs: byUid.get(uid) })) });
  }
}

function ask(worker, command, args) {
  const id = (worker.next += 1);
  return new Promise((resolve, reject) => {
    worker.pending.set(id, { resolve, reject });
    worker.send({ id, command, args });
  });
}

function all(command, args) {
  return Promise.all(workers.map((worker) => ask(worker, command, args)));
}

function spread(command, argsFor) {
  return Promise.all(workers.map((worker) => ask(worker, command, argsFor(worker.slice))));
}

async function call(method, path, uid, body) {
  for (let attempt = 0; ; attempt += 1) {
    let response;
    try {
      response = await fetch(app.baseUrl + path, {
        method, headers: { authorization: `Bearer ${mintToken(app.secret, uid, 'setup')}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (error) {
      // A pooled connection the restarted app no longer holds (ECONNRESET, "socket hang up"): again,
      // on a new one. A send retried keeps its clientMsgId, so it is stored once.
      if (attempt >= 20) throw error;
      await sleep(100 * (attempt + 1));
      continue;
    }
    if (response.ok) {
      const answer = await response.json();
      if (response.status !== 202 || !path.endsWith('/messages')) return answer;
    } else if (response.status === 404 && attempt < 100) {
      await response.json(); // a group created with a 202 (past the reply budget) is not stored yet: wait for it
    } else if (response.status !== 429 && response.status !== 503) {
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(await response.json())}`);
    }
    await sleep(200 * (attempt + 1)); // 202 (the same clientMsgId again gets the seq), 429, 503
  }
}

async function parallel(items, width, work) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

function percentiles(sorted) {
  if (sorted.length === 0) return null;
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

function round2(x) { return Math.round(x * 100) / 100; }

function mulberry32(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
