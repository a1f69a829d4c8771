// The abuse limits at their defaults (docs/api.md, "Limits"), against the real app: one user opening
// 2,000 push sockets and flooding sends does not change what another user's first screen costs. The
// other user's list and first page answer 200 within a second throughout; the flood is refused with
// 429 (sends; sockets past the user's limits, before their upgrade).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { App } from '../lib/app.mjs';
import { Caller } from '../lib/http.mjs';
import { mintToken } from '../lib/tokens.mjs';

const SOCKETS = 2000;
const IN_FLIGHT = 200;
const SENDS = 1000;
const PEERS = 300;
const FIRST_SCREEN_BUDGET_MS = 1000;

const app = new App({ name: 'limits', raisedLimits: false });
before(() => app.start(), { timeout: 240_000 });
after(() => app.stop());

test('2,000 sockets and a send flood from one user leave another user\'s first screen as it was', { timeout: 300_000 }, async (t) => {
  const attacker = new Caller(app, 901, 'phone');
  const victim = new Caller(app, 902, 'phone');
  const conv = 'd:901:902';
  await victim.sendMany(conv, 25, 'before-', 5);
  // The attacker is in many conversations: every handshake of theirs is heavier.
  const peers = Array.from({ length: PEERS }, (_, i) => 10_000 + i);
  for (let i = 0; i < peers.length; i += 16) {
    await Promise.all(peers.slice(i, i + 16).map((peer) => new Caller(app, peer, 'phone').send(`d:901:${peer}`, 'hi')));
  }

  // The other user's first screen, timed from a thread of its own: first alone, then under the flood.
  const quiet = await probe(victim, conv, async () => new Promise((resolve) => setTimeout(resolve, 3000)));
  let sockets;
  let sends;
  const probes = await probe(victim, conv, async () => {
    [sockets, sends] = await Promise.all([openSockets(), floodSends(attacker, conv)]);
  });
  sockets.open.forEach((socket) => socket.terminate());

  const summary = (measured, what) => {
    const ms = measured.filter((p) => p.what === what).map((p) => p.ms).sort((a, b) => a - b);
    const at = (q) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]);
    return `${what}: ${ms.length} probes, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${Math.round(ms[ms.length - 1])} ms`;
  };
  t.diagnostic(`sockets: ${JSON.stringify(sockets.closes)} (${sockets.synced} got their sync frame)`);
  t.diagnostic(`sends: ${JSON.stringify(sends)}`);
  t.diagnostic(`alone: ${summary(quiet, 'list')}; ${summary(quiet, 'page')}`);
  t.diagnostic(`under the flood: ${summary(probes, 'list')}; ${summary(probes, 'page')}`);

  assert.ok(probes.length >= 10, `${probes.length} probes`);
  const slowOrFailed = probes.filter((p) => p.status !== 200 || p.ms > FIRST_SCREEN_BUDGET_MS);
  assert.deepEqual(slowOrFailed, [], 'every probe of the other user answered 200 within a second');
  assert.equal((sockets.closes['http 429'] ?? 0) + (sockets.closes[4429] ?? 0), SOCKETS - sockets.synced,
    'every socket past the limits was refused: 429 before its upgrade, or 4429 before its handshake');
  assert.ok(sockets.synced <= 20, `${sockets.synced} handshakes ran: at most the user's cap`);
  assert.ok((sends[429] ?? 0) > 0, 'the send flood got 429s');
  assert.equal(Object.keys(sends).filter((status) => status >= 500).length, 0, `no 5xx: ${JSON.stringify(sends)}`);
});

// Runs `during` while a worker thread times the victim's list and latest page: the probes.
async function probe(victim, convId, during) {
  const worker = new Worker(new URL('../lib/first-screen-probe.mjs', import.meta.url),
    { workerData: { baseUrl: app.baseUrl, token: victim.token, convId, pauseMs: 50 } });
  const measured = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  try {
    await during();
  } finally {
    worker.postMessage('stop');
  }
  try {
    return await measured;
  } finally {
    await worker.terminate(); // its message port would keep this test's process alive after the last test
  }
}

// Opens SOCKETS sockets of one user (a device each), IN_FLIGHT at a time; keeps those the server keeps.
async function openSockets() {
  const closes = {};
  const open = [];
  let synced = 0;
  let next = 0;
  const one = (i) => new Promise((resolve) => {
    const socket = new WebSocket(`${app.wsUrl}/v1/stream`, { headers: { authorization: `Bearer ${mintToken(app.secret, 901, `d${i}`)}` } });
    let done = false;
    const finish = () => { if (!done) { done = true; resolve(); } };
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'sync') {
        synced += 1;
        open.push(socket);
        finish();
      }
    });
    socket.on('close', (code) => {
      closes[code] = (closes[code] ?? 0) + 1;
      finish();
    });
    socket.on('error', () => finish());
    // Refused before the upgrade (the opening rate, or the cap on this instance).
    socket.on('unexpected-response', (request, response) => {
      closes[`http ${response.statusCode}`] = (closes[`http ${response.statusCode}`] ?? 0) + 1;
      response.resume();
      request.destroy();
      finish();
    });
  });
  const worker = async () => {
    while (next < SOCKETS) await one(next++);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return { closes, open, synced };
}

// SENDS sends from one device, 20 at a time, none retried: the statuses counted.
async function floodSends(caller, conv) {
  const statuses = {};
  let next = 0;
  const worker = async () => {
    while (next < SENDS) {
      const i = next++;
      const response = await fetch(`${app.baseUrl}/v1/conversations/${conv}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ clientMsgId: `flood-${i}`, type: 'text', content: 'x'.repeat(1000) }),
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return statuses;
}
