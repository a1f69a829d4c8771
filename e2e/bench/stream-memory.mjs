// scripts/bench-stream-memory: what a push socket costs, with and without permessage-deflate. Each
// round a fresh app with http.stream-compression on, and a fresh Node process that opens N sockets
// (each its own user, handshake received, one ping answered) offering the extension or not, in
// alternating order: the app's and the client process's RSS growth per socket; then the bytes on the
// wire per pushed message to one device.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { App, sleep } from '../lib/app.mjs';
import { mintToken } from '../lib/tokens.mjs';
import { parseArgs } from './args.mjs';

const log = (...args) => console.error(new Date().toISOString().slice(11, 23), ...args);
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const kbPerSocket = (before, withThem, count) => Math.round(((withThem - before) * 1024) / count);

if (process.argv[2] === '--child') {
  // A client process: opens the sockets, reports its RSS growth, keeps them open until told to end.
  const { baseUrl, secret, firstUid, count, deflate, batch } = JSON.parse(process.argv[3]);
  const before = process.memoryUsage().rss / 1048576;
  const open = [];
  const startedAt = Date.now();
  for (let i = 0; i < count; i += batch) {
    const next = [];
    for (let j = i; j < Math.min(count, i + batch); j += 1) next.push(connect(baseUrl, secret, firstUid + j, deflate));
    open.push(...await Promise.all(next));
  }
  const openedMs = Date.now() - startedAt;
  await sleep(2000);
  process.send({ openedMs, negotiated: open[0].extensions || 'none', clientKbPerSocket: kbPerSocket(before, process.memoryUsage().rss / 1048576, count) });
  process.on('message', () => process.exit(0));
} else {
  const options = parseArgs(process.argv.slice(2), { sockets: 2000, rounds: 2, messages: 200, batch: 50 });
  const results = [];
  for (let round = 0; round < options.rounds; round += 1) {
    for (const deflate of round % 2 === 0 ? [false, true] : [true, false]) {
      results.push({ round: round + 1, deflate, ...(await socketsRound(options, deflate)) });
      log(JSON.stringify(results.at(-1)));
    }
  }
  const app = await started();
  try {
    const wire = [];
    for (const deflate of [false, true]) wire.push({ deflate, ...(await bytesPerPush(app, options.messages, deflate)) });
    console.log(JSON.stringify({ options, sockets: results, wire }, null, 2));
  } finally {
    await app.stop();
  }
}

async function started() {
  const app = new App({ name: 'bench-stream-memory', env: { SEQSYNC_HTTP_STREAM_COMPRESSION: 'true' } });
  log('starting an app (http.stream-compression=true)');
  await app.start();
  await sleep(5000); // past the start's own allocations
  return app;
}

/** A fresh app and a fresh client process with `options.sockets` sockets: RSS growth per socket on each side. */
async function socketsRound(options, deflate) {
  const app = await started();
  try {
    const appBefore = rssMb(app.process.pid);
    const child = fork(fileURLToPath(import.meta.url), ['--child', JSON.stringify({
      baseUrl: app.baseUrl, secret: app.secret, firstUid: 1_000_000, count: options.sockets, deflate, batch: options.batch,
    })]);
    const report = await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`the client process ended (${code})`)));
    });
    await sleep(1000);
    const appWith = rssMb(app.process.pid);
    child.removeAllListeners('exit');
    child.send('end');
    return { ...report, appRssMb: [Math.round(appBefore), Math.round(appWith)], appKbPerSocket: kbPerSocket(appBefore, appWith, options.sockets) };
  } finally {
    await app.stop();
  }
}

/** A socket that got its handshake and a pong; one the server refused (1013: lane full) is opened again. */
function connect(baseUrl, secret, uid, deflate) {
  return new Promise((resolve) => {
    const url = `${baseUrl.replace(/^http/, 'ws')}/v1/stream?access_token=${mintToken(secret, uid, 'bench')}`;
    const socket = new WebSocket(url, { perMessageDeflate: deflate });
    let answered = 0;
    socket.on('message', () => {
      answered += 1;
      if (answered === 1) socket.send('{"type":"ping"}');
      if (answered === 2) resolve(socket);
    });
    socket.on('error', () => {});
    socket.once('close', () => { if (answered < 2) setTimeout(() => connect(baseUrl, secret, uid, deflate).then(resolve), 200); });
  });
}

/**
 * `messages` sends from one user to another whose socket offers deflate or not: wire bytes per
 * pushed frame. Each content is 40 random characters (incompressible), the rest is the frame's JSON.
 */
async function bytesPerPush(app, messages, deflate) {
  const [sender, receiver] = deflate ? [901, 902] : [903, 904];
  const convId = `d:${sender}:${receiver}`;
  const socket = await connect(app.baseUrl, app.secret, receiver, deflate);
  const before = socket._socket.bytesRead;
  let frames = 0;
  const all = new Promise((resolve) => socket.on('message', (data) => {
    if (JSON.parse(String(data)).type === 'message' && (frames += 1) === messages) resolve();
  }));
  const token = mintToken(app.secret, sender, 'phone');
  for (let i = 0; i < messages; i += 1) {
    const response = await fetch(`${app.baseUrl}/v1/conversations/${convId}/messages`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ clientMsgId: `m-${deflate}-${i}`, type: 'text', content: randomBytes(30).toString('base64') }),
    });
    if (response.status !== 200) throw new Error(`send answered ${response.status}`);
  }
  await all;
  const bytes = socket._socket.bytesRead - before;
  socket.terminate();
  return { negotiated: socket.extensions || 'none', messages, bytesPerPush: Math.round(bytes / messages) };
}
