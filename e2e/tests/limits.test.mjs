// The abuse limits at their defaults (docs/api.md, "Limits"), against the real app: one user opening
// 2,000 push sockets and flooding sends does not change what another user's first screen costs. The
// other user's list and first page answer 200 within a second throughout; the flood is refused with
// 429 (sends) and close code 4429 (sockets past the user's cap, before their handshake).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { App } from '../lib/app.mjs';
import { Caller } from '../lib/http.mjs';
import { mintToken } from '../lib/tokens.mjs';

const SOCKETS = 2000;
const IN_FLIGHT = 200;
const SENDS = 1000;
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
  for (let peer = 910; peer < 930; peer += 1) await new Caller(app, peer, 'phone').send(`d:901:${peer}`, 'hi');

  const probes = [];
  let attacking = true;
  const probing = (async () => {
    while (attacking) {
      for (const [what, path] of [['list', '/v1/conversations'], ['page', `/v1/conversations/${conv}/messages?last=20`]]) {
        const started = performance.now();
        const response = await fetch(app.baseUrl + path, { headers: { authorization: `Bearer ${victim.token}` } });
        await response.arrayBuffer();
        probes.push({ what, status: response.status, ms: performance.now() - started });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();

  const [sockets, sends] = await Promise.all([openSockets(), floodSends(attacker, conv)]);
  attacking = false;
  await probing;
  sockets.open.forEach((socket) => socket.terminate());

  const summary = (what) => {
    const ms = probes.filter((p) => p.what === what).map((p) => p.ms).sort((a, b) => a - b);
    const at = (q) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]);
    return `${what}: ${ms.length} probes, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${Math.round(ms[ms.length - 1])} ms`;
  };
  t.diagnostic(`sockets: ${JSON.stringify(sockets.closes)} (${sockets.synced} got their sync frame)`);
  t.diagnostic(`sends: ${JSON.stringify(sends)}`);
  t.diagnostic(summary('list'));
  t.diagnostic(summary('page'));

  assert.ok(probes.length >= 10, `${probes.length} probes`);
  const slowOrFailed = probes.filter((p) => p.status !== 200 || p.ms > FIRST_SCREEN_BUDGET_MS);
  assert.deepEqual(slowOrFailed, [], 'every probe of the other user answered 200 within a second');
  assert.ok((sockets.closes[4429] ?? 0) > 0, 'sockets past the cap were refused with 4429');
  assert.ok(sockets.synced <= 20, `${sockets.synced} handshakes ran: at most the user's cap`);
  assert.ok((sends[429] ?? 0) > 0, 'the send flood got 429s');
  assert.equal(Object.keys(sends).filter((status) => status >= 500).length, 0, `no 5xx: ${JSON.stringify(sends)}`);
});

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
