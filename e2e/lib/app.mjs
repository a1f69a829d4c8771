// Starts the real app jar (modules/app/target/seqsync-app.jar, built by `mvn verify` or
// `mvn -pl modules/app -am package`) with its embedded servers on free ports, in a data directory
// of its own, and stops, kills or restarts it on the same data and ports.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const OUTPUT = join(REPO, 'e2e', 'output');
const JAR = join(REPO, 'modules', 'app', 'target', 'seqsync-app.jar');
// How long a start may take to answer /health; E2E_START_BUDGET_MS raises it on a loaded machine.
const START_BUDGET_MS = Number(process.env.E2E_START_BUDGET_MS) || 180_000;

/** A port the OS calls free now (another process may take it before the app does: unlikely here). */
export async function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

// The buckets of docs/api.md's "Limits". The tests drive the API far faster than people, from few
// devices: each App raises every limit, unless made with `raisedLimits: false` (the limits' own tests).
const LIMIT_BUCKETS = ['SEND_DEVICE', 'SEND_USER', 'POSITION_DEVICE', 'DRAFT_DEVICE', 'GROUP_USER', 'TELEMETRY_DEVICE',
  'FRAME_SOCKET', 'SOCKET_USER'];
const RAISED = '1000000';
export const RAISED_LIMITS_ENV = Object.fromEntries([
  ...LIMIT_BUCKETS.flatMap((bucket) => [[`SEQSYNC_LIMITS_${bucket}_RATE`, RAISED], [`SEQSYNC_LIMITS_${bucket}_BURST`, RAISED]]),
  ['SEQSYNC_LIMITS_SOCKETS_PER_USER', RAISED],
]);

/**
 * One app: `start()` launches it and waits until it has started and /health answers (one that does not
 * within the budget is stopped), `stop()` ends it as an operator would (SIGTERM, then waits; SIGKILL
 * after a minute), `kill()` is kill -9 (its embedded PostgreSQL and Redis stay up until the next start
 * on the same directory stops them), `restart()` starts it again on the same data.
 * `env` adds or overrides SEQSYNC_* variables; `raisedLimits: false` keeps the limits' defaults.
 */
export class App {
  constructor({ name = 'app', env = {}, dataDir, raisedLimits = true } = {}) {
    if (!existsSync(JAR)) throw new Error(`${JAR} is missing: build it first (mvn -B -ntp -DskipTests -pl modules/app -am package)`);
    mkdirSync(OUTPUT, { recursive: true });
    this.name = name;
    this.extraEnv = { ...(raisedLimits ? RAISED_LIMITS_ENV : {}), ...env };
    this.dataDir = dataDir ?? mkdtempSync(join(OUTPUT, `${name}-data-`));
    this.secret = randomBytes(32).toString('hex');
    this.process = null;
    this.starts = 0;
  }

  get baseUrl() { return `http://127.0.0.1:${this.ports.http}`; }
  get wsUrl() { return `ws://127.0.0.1:${this.ports.http}`; }

  async start() {
    this.ports ??= { http: await freePort(), kafka: await freePort(), postgres: await freePort(), redis: await freePort() };
    const env = {
      ...process.env,
      SEQSYNC_DATA_DIR: this.dataDir,
      SEQSYNC_HTTP_HOST: '127.0.0.1',
      SEQSYNC_HTTP_PORT: String(this.ports.http),
      SEQSYNC_KAFKA_EMBEDDED_PORT: String(this.ports.kafka),
      SEQSYNC_POSTGRES_EMBEDDED_PORT: String(this.ports.postgres),
      SEQSYNC_REDIS_EMBEDDED_PORT: String(this.ports.redis),
      SEQSYNC_AUTH_SECRET: this.secret,
      // Delivery figures as they are now: the tests wait for them to change.
      SEQSYNC_DELIVERY_FIGURES_CACHE: '0s',
      ...this.extraEnv,
    };
    this.starts += 1;
    const log = createWriteStream(join(OUTPUT, `${this.name}-${this.starts}.log`));
    // A small heap: tests start several apps on a 2-core machine shared with the build.
    const child = spawn('java', [`@${join(REPO, 'scripts', 'jvm.options')}`, '-Xms256m', '-Xmx1g', '-jar', JAR],
      { cwd: this.dataDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    // /health answers once the ingress listens, which may be before the sequencer has joined its
    // group and restored; the app logs "seqsync is up" once all of it runs.
    this.up = false;
    let tail = '';
    child.stdout.on('data', (chunk) => {
      tail = (tail + chunk).slice(-4096);
      if (tail.includes('seqsync is up')) this.up = true;
    });
    this.exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
    this.process = child;
    const deadline = Date.now() + START_BUDGET_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${this.name} exited during start (${child.exitCode ?? child.signalCode}); see ${log.path}`);
      }
      if (this.up && await this.healthy()) return this;
      await sleep(250);
    }
    await this.stop(); // not kill: its shutdown stops the embedded PostgreSQL and redis-server it started
    throw new Error(`${this.name} did not answer /health within ${START_BUDGET_MS} ms; see ${log.path}`);
  }

  async healthy() {
    try {
      const response = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      return response.ok;
    } catch {
      return false;
    }
  }

  /** SIGTERM, then SIGKILL if it has not ended within `graceMs`. */
  async stop(graceMs = 60_000) {
    if (!this.running()) return;
    this.process.kill('SIGTERM');
    let timer;
    const overdue = new Promise((resolveOverdue) => { timer = setTimeout(() => resolveOverdue(true), graceMs); });
    const killNow = await Promise.race([this.exited.then(() => false), overdue]);
    clearTimeout(timer);
    if (killNow) await this.kill();
  }

  async kill() {
    if (!this.running()) return;
    this.process.kill('SIGKILL');
    await this.exited;
  }

  async restart() {
    await this.stop();
    return this.start();
  }

  running() {
    return this.process !== null && this.process.exitCode === null && this.process.signalCode === null;
  }
}

// Configurations several files run on: `npm test` (run.mjs) starts one app per configuration, runs
// the files that ask for it (`sharedApp(configuration, ...)`) against it, then stops it, instead of an
// app per file: a start of the whole stack is most of a small file's time. A file on a shared app
// uses user ids and conversations no other file uses, and never stops or restarts the app; a file
// needing other settings, a restart or a kill makes an App of its own.
export const SHARED_CONFIGURATIONS = {
  plain: {},
  // A reply budget for a loaded machine: the answers' notices are what the files on it read.
  'long-reply-budget': { SEQSYNC_HTTP_REPLY_BUDGET: '15s' },
};
/** Where run.mjs tells the files about the app it started: {configuration, baseUrl, wsUrl, secret, ports}. */
export const SHARED_APP_ENV = 'SEQSYNC_E2E_SHARED_APP';

/**
 * The app of `configuration` for a file: the one run.mjs started when it gave this configuration,
 * otherwise (a file run alone with `node --test`) an App of the file's own, named `name`.
 */
export function sharedApp(configuration, name) {
  const env = SHARED_CONFIGURATIONS[configuration];
  if (env === undefined) throw new Error(`no shared configuration ${configuration}`);
  const given = process.env[SHARED_APP_ENV] ? JSON.parse(process.env[SHARED_APP_ENV]) : null;
  return given?.configuration === configuration ? new SharedApp(given) : new App({ name, env });
}

/** The address and secret of an app another process started and will stop: starting it checks it is up. */
class SharedApp {
  constructor({ baseUrl, wsUrl, secret, ports }) {
    Object.assign(this, { baseUrl, wsUrl, secret, ports });
  }

  async start() {
    const health = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(10_000) });
    if (!health.ok) throw new Error(`the shared app at ${this.baseUrl} answers /health with ${health.status}`);
    return this;
  }

  async stop() {} // run.mjs stops it after the last file on it

  async kill() { throw new Error('a shared app is not killed by a file: make an App of its own'); }

  async restart() { throw new Error('a shared app is not restarted by a file: make an App of its own'); }
}

/** What run.mjs hands the files on `app` (an App it started with `configuration`). */
export function describeShared(configuration, app) {
  const { baseUrl, wsUrl, secret, ports } = app;
  return JSON.stringify({ configuration, baseUrl, wsUrl, secret, ports });
}

export function sleep(ms) {
  return new Promise((resolveSleep) => setTimeout(resolveSleep, ms));
}
