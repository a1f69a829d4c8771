// scripts/bench-presence: what typing and presence cost per 1,000 connected users, next to the same
// number of plain sockets, in one run. Two apps one after the other, each with N sockets (N users,
// paired in direct conversations) measured over the same window:
//   plain:    presence.socket-ttl of a day (no beats inside the window); the sockets only ping
//   presence: the defaults; every socket watches its peer's presence, a share of the users is typing
//             (a typing frame every 2.5 s, as seqsync-client sends them), and each user's tab hides
//             or shows once per --visibility-s seconds (each a presence change for the peer)
// Measured: the app's CPU (utime + stime from /proc), Redis's commands by name and its CPU (INFO
// commandstats, INFO cpu), and the frames the clients received. JSON on stdout, progress on stderr.
import { connect as tcp } from 'node:net';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { App, sleep } from '../lib/app.mjs';
import { Caller } from '../lib/http.mjs';
import { mintToken } from '../lib/tokens.mjs';
import { parseArgs } from './args.mjs';

const log = (...args) => console.error(new Date().toISOString().slice(11, 23), ...args);
const TICKS = 100; // clock ticks per second of /proc/<pid>/stat (USER_HZ)
const FIRST_USER = 3_000_001;

const options = parseArgs(process.argv.slice(2), { users: 1000, 'window-s': 60, 'typing-share': 0.2, 'visibility-s': 30, batch: 50 });
const runs = [];
for (const mode of ['plain', 'presence']) {
  runs.push(await run(mode));
  log(JSON.stringify(runs.at(-1)));
}
const [plain, presence] = runs;
const per1000 = (value) => Math.round((value * 1000 * 100) / options.users) / 100;
console.log(JSON.stringify({
  options,
  runs,
  presenceMinusPlainPer1000Users: {
    appCpuCores: per1000(presence.appCpuCores - plain.appCpuCores),
    redisCommandsPerS: per1000(presence.redisCommandsPerS - plain.redisCommandsPerS),
    redisCpuCores: per1000(presence.redisCpuCores - plain.redisCpuCores),
  },
}, null, 2));

async function run(mode) {
  const env = mode === 'plain' ? { SEQSYNC_PRESENCE_SOCKET_TTL: '24h' } : {};
  const app = new App({ name: `bench-presence-${mode}`, env });
  log(`starting the ${mode} app`);
  await app.start();
  try {
    await seedPairs(app);
    const sockets = await openSockets(app);
    const received = { typing: 0, presence: 0, other: 0 };
    for (const socket of sockets) {
      socket.on('message', (data) => {
        const type = JSON.parse(String(data)).type;
        received[type in received ? type : 'other'] += 1;
      });
    }
    if (mode === 'presence') {
      sockets.forEach((socket, i) => socket.send(JSON.stringify({ type: 'presence', users: [String(peerOf(FIRST_USER + i))] })));
    }
    await sleep(5000); // past the opens' and watches' own work
    Object.keys(received).forEach((key) => { received[key] = 0; });
    const before = await measure(app);
    const stopLoad = load(sockets, mode);
    await sleep(options['window-s'] * 1000);
    stopLoad();
    const after = await measure(app);
    sockets.forEach((socket) => socket.terminate());
    const seconds = (after.at - before.at) / 1000;
    const commands = {};
    for (const [name, calls] of Object.entries(after.commands)) {
      const delta = calls - (before.commands[name] ?? 0);
      if (delta > 0) commands[name] = Math.round((delta / seconds) * 10) / 10;
    }
    return {
      mode,
      seconds: Math.round(seconds),
      appCpuCores: round3((after.appTicks - before.appTicks) / TICKS / seconds),
      redisCpuCores: round3((after.redisCpu - before.redisCpu) / seconds),
      redisCommandsPerS: Math.round(Object.values(commands).reduce((a, b) => a + b, 0) * 10) / 10,
      redisCommandsPerSByName: commands,
      framesReceivedPerS: Object.fromEntries(Object.entries(received).map(([k, v]) => [k, Math.round((v / seconds) * 10) / 10])),
    };
  } finally {
    await app.stop();
  }
}

function peerOf(user) {
  return (user - FIRST_USER) % 2 === 0 ? user + 1 : user - 1;
}

// One message per pair: the two share a conversation (presence and typing need it).
async function seedPairs(app) {
  const pairs = [];
  for (let user = FIRST_USER; user < FIRST_USER + options.users; user += 2) pairs.push(user);
  for (let i = 0; i < pairs.length; i += 16) {
    await Promise.all(pairs.slice(i, i + 16).map((user) => new Caller(app, user, 'seed').send(`d:${user}:${user + 1}`, 'hi')));
  }
}

async function openSockets(app) {
  const sockets = [];
  for (let i = 0; i < options.users; i += options.batch) {
    const batch = [];
    for (let j = i; j < Math.min(options.users, i + options.batch); j += 1) batch.push(openSocket(app, FIRST_USER + j));
    sockets.push(...await Promise.all(batch));
  }
  log(`${sockets.length} sockets open`);
  return sockets;
}

function openSocket(app, user) {
  const url = `${app.baseUrl.replace(/^http/, 'ws')}/v1/stream?access_token=${mintToken(app.secret, user, 'bench')}`;
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('message', () => resolve(socket)); // the sync frame
    socket.once('error', reject);
  });
}

// Pings every 20 s (seqsync-client's keep-alive) from every socket; with presence also typing and
// visibility, spread evenly over time.
function load(sockets, mode) {
  const timers = [];
  const every = (ms, action) => {
    sockets.forEach((socket, i) => {
      timers.push(setTimeout(() => {
        action(socket, i);
        timers.push(setInterval(() => action(socket, i), ms));
      }, Math.floor((ms * i) / sockets.length)));
    });
  };
  every(20_000, (socket) => socket.send('{"type":"ping"}'));
  if (mode === 'presence') {
    const typists = Math.round(sockets.length * options['typing-share']);
    const conv = (i) => { const user = FIRST_USER + i; const low = Math.min(user, peerOf(user)); return `d:${low}:${low + 1}`; };
    every(2500, (socket, i) => { if (i < typists) socket.send(JSON.stringify({ type: 'typing', convId: conv(i) })); });
    const hidden = new Map();
    every(options['visibility-s'] * 1000, (socket, i) => {
      hidden.set(i, !hidden.get(i));
      socket.send(JSON.stringify({ type: 'visibility', hidden: hidden.get(i) }));
    });
  }
  return () => timers.forEach((timer) => { clearTimeout(timer); clearInterval(timer); });
}

async function measure(app) {
  const stat = readFileSync(`/proc/${app.process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const appTicks = Number(fields[11]) + Number(fields[12]); // utime, stime
  const info = await redisInfo(app.ports.redis);
  const commands = {};
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) commands[match[1]] = Number(match[2]);
  const cpu = (name) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)[1]);
  return { at: Date.now(), appTicks, commands, redisCpu: cpu('used_cpu_sys') + cpu('used_cpu_user') };
}

// INFO over Redis's protocol: one inline command, one bulk string answer.
function redisInfo(port) {
  return new Promise((resolve, reject) => {
    const socket = tcp(port, '127.0.0.1', () => socket.write('INFO all\r\n'));
    let answer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      answer = Buffer.concat([answer, chunk]);
      const header = answer.indexOf('\r\n');
      if (header < 0) return;
      const length = Number(answer.subarray(1, header).toString());
      if (answer.length >= header + 2 + length) {
        socket.end();
        resolve(answer.subarray(header + 2, header + 2 + length).toString());
      }
    });
    socket.on('error', reject);
  });
}

function round3(value) {
  return Math.round(value * 1000) / 1000;
}
