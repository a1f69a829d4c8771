// The ops dashboard (docs/operations.md) on the real app jar: only an operator's token opens it
// (401 without a valid token, 403 with a user's), its own or an identity provider's (the app is
// configured with a JWKS this test serves); in headless Chromium, signed in through its form
// while sends run, it shows non-zero sends, an injected seq gap with its conversation and an
// injected dead letter; and every metric the alert rules and the Grafana dashboard use is served at
// /metrics. Faults are injected through Kafka by the test-only FaultInjector (modules/app test
// classes), so they go through the projector's continuity check and the sequencer's dead-lettering.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { App, OUTPUT, REPO, freePort, sleep } from '../lib/app.mjs';
import { launchChromium, screenshotPath } from '../lib/browser.mjs';
import { mintOperatorToken, mintToken } from '../lib/tokens.mjs';

// An identity provider as Keycloak publishes one: a JWKS over HTTP, RS256 tokens with iss and aud.
const ISSUER = 'https://idp.test/realms/chat';
const idpKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwks = JSON.stringify({ keys: [{ ...idpKey.publicKey.export({ format: 'jwk' }), kid: 'idp-1', alg: 'RS256', use: 'sig' }] });
const jwksServer = createServer((request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
let app;

before(async () => {
  const jwksPort = await freePort();
  await new Promise((resolve) => jwksServer.listen(jwksPort, '127.0.0.1', resolve));
  app = new App({ name: 'ops', env: {
    SEQSYNC_AUTH_JWKS_URL: `http://127.0.0.1:${jwksPort}/certs`, SEQSYNC_AUTH_ISSUER: ISSUER,
    SEQSYNC_AUTH_AUDIENCE: 'seqsync', SEQSYNC_AUTH_USER_CLAIM: 'seqsync_uid', SEQSYNC_AUTH_OPS_CLAIM: 'realm_access.roles',
    // One delivery report per device, for the abuse limits' tile to count a refusal.
    SEQSYNC_LIMITS_TELEMETRY_DEVICE_RATE: '0.01', SEQSYNC_LIMITS_TELEMETRY_DEVICE_BURST: '1',
  } });
  await app.start();
});
after(async () => {
  await app.stop();
  jwksServer.close();
});

function providerToken(claims) {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${part({ alg: 'RS256', typ: 'JWT', kid: 'idp-1' })}.${part({
    iss: ISSUER, aud: ['account', 'seqsync'], sub: 'f3b1c2a0-5d1e-4f7a-9c3b-2e8d7a6b5c4d',
    exp: Math.floor(Date.now() / 1000) + 300, ...claims })}`;
  return `${signed}.${sign('sha256', Buffer.from(signed), idpKey.privateKey).toString('base64url')}`;
}

const GAP_CONV = 'd:31:32';
const TRAFFIC_CONV = 'd:21:22';

const bearer = (token) => ({ authorization: `Bearer ${token}` });

async function send(userId, convId, clientMsgId) {
  const response = await fetch(`${app.baseUrl}/v1/conversations/${convId}/messages`, {
    method: 'POST',
    headers: { ...bearer(mintToken(app.secret, userId, 'phone')), 'content-type': 'application/json' },
    body: JSON.stringify({ clientMsgId, type: 'text', content: 'hello' }),
  });
  return response.status;
}

async function inject(...args) {
  const classpath = [join(REPO, 'modules', 'app', 'target', 'seqsync-app.jar'),
    join(REPO, 'modules', 'app', 'target', 'test-classes')].join(':');
  await promisify(execFile)('java', ['-cp', classpath, 'io.seqsync.app.FaultInjector',
    '--bootstrap', `127.0.0.1:${app.ports.kafka}`, ...args], { timeout: 120_000 });
}

async function eventually(what, check, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(500);
  }
}

test('only an operator opens the dashboard: 401 without a valid token, 403 with a user\'s', async () => {
  const user = mintToken(app.secret, 21, 'phone');
  const forged = mintOperatorToken('x'.repeat(64));
  for (const path of ['/ops/', '/ops/api/live', '/ops/api/delivery', '/ops/api/delivery/cases', '/ops/delivery']) {
    assert.equal((await fetch(`${app.baseUrl}${path}`)).status, 401, `${path} without a token`);
    assert.equal((await fetch(`${app.baseUrl}${path}`, { headers: bearer(forged) })).status, 401, `${path} forged`);
    assert.equal((await fetch(`${app.baseUrl}${path}`, { headers: bearer(user) })).status, 403, `${path} a user's token`);
    assert.equal((await fetch(`${app.baseUrl}${path}`, { headers: { cookie: `seqsync_ops=${user}` } })).status, 403,
      `${path} a user's token as the cookie`);
    assert.equal((await fetch(`${app.baseUrl}${path}`, { headers: bearer(mintOperatorToken(app.secret)) })).status, 200,
      `${path} an operator's token`);
  }
  // An operator's token is no user's: the chat API refuses it.
  assert.equal((await fetch(`${app.baseUrl}/v1/conversations`, { headers: bearer(mintOperatorToken(app.secret)) })).status, 401);
  // The scrapers' route needs no token.
  assert.equal((await fetch(`${app.baseUrl}/metrics`)).status, 200);
});

test('the app configured with an identity provider signs in its users and operators by their RS256 tokens', async () => {
  const user = providerToken({ seqsync_uid: '41', did: 'web' });
  assert.equal((await fetch(`${app.baseUrl}/v1/conversations`, { headers: bearer(user) })).status, 200);
  assert.equal((await fetch(`${app.baseUrl}/ops/api/live`, { headers: bearer(user) })).status, 403);
  const noUserId = await fetch(`${app.baseUrl}/v1/conversations`, { headers: bearer(providerToken({ did: 'web' })) });
  assert.equal(noUserId.status, 401);
  assert.equal((await noUserId.json()).error.code, 'invalid_user_claim');
  const otherIssuer = providerToken({ seqsync_uid: '41', did: 'web', iss: 'https://evil.test' });
  assert.equal((await fetch(`${app.baseUrl}/v1/conversations`, { headers: bearer(otherIssuer) })).status, 401);
  const operator = providerToken({ realm_access: { roles: ['offline_access', 'seqsync-ops'] } });
  assert.equal((await fetch(`${app.baseUrl}/ops/api/live`, { headers: bearer(operator) })).status, 200);
  assert.equal((await fetch(`${app.baseUrl}/v1/conversations`, { headers: bearer(operator) })).status, 401);
});

test('in Chromium an operator sees live sends, an injected seq gap and a dead letter; a user\'s token gets 403', async () => {
  assert.ok([200, 202].includes(await send(31, GAP_CONV, 'gap-1'))); // 202: numbered a little later
  let running = true;
  let sent = 0;
  const traffic = (async () => {
    while (running) {
      sent += 1;
      await send(21 + (sent % 2), TRAFFIC_CONV, `traffic-${sent}`).catch(() => {});
      await sleep(100);
    }
  })();
  const browser = await launchChromium();
  try {
    const problems = [];
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => {
      // The sign-in page's 401 and 403 are expected; anything else (a CSP violation, a script error, a 404) is not.
      if (message.type() === 'error' && !/status of 40[13]/.test(message.text())) problems.push(message.text());
    });

    const signIn = await page.goto(`${app.baseUrl}/ops/`);
    assert.equal(signIn.status(), 401);
    await page.fill('#token', mintToken(app.secret, 21, 'phone'));
    const [refused] = await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    assert.equal(refused.status(), 403);
    assert.match(await page.textContent('#error'), /not an operator/);
    await page.screenshot({ path: screenshotPath('ops-dashboard-403') });

    await page.fill('#token', mintOperatorToken(app.secret));
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    assert.equal(new URL(page.url()).pathname, '/ops/');

    const sendsPerSecond = await eventually('non-zero sends/s on the page', async () => {
      const text = await page.textContent('[data-figure="sends-per-second"]');
      return Number(text.replace(/,/g, '')) > 0 ? text : null;
    });
    assert.ok(Number(sendsPerSecond) > 0);
    const chartPoints = await page.evaluate(() => document.querySelectorAll('#chart-sends canvas').length);
    assert.equal(chartPoints, 1, 'the sends chart is drawn');

    // A refused request shows on the abuse limits' tile, with where the limits are kept.
    const report = async () => (await fetch(`${app.baseUrl}/v1/telemetry/rendered`, { method: 'POST',
      headers: { ...bearer(mintToken(app.secret, 51, 'phone')), 'content-type': 'application/json' }, body: '{"items":[]}' })).status;
    assert.equal(await report(), 400);
    assert.equal(await report(), 429);
    await eventually('the refusal on the limits tile', async () =>
      (await page.textContent('[data-figure="limits"]')) === 'Redis / 1');
    assert.equal(await page.evaluate(() => document.querySelectorAll('#chart-limits canvas').length), 1, 'the limits chart is drawn');

    await inject('--gap-in', GAP_CONV, '--seq', '3', '--undecodable-command', GAP_CONV);
    const row = await eventually('the injected gap listed with its conversation', async () => {
      const text = await page.textContent('#anomalies tbody');
      return text.includes(GAP_CONV) ? text : null;
    });
    assert.match(row, /d:31:32\s*23/); // expected 2, got 3
    await eventually('the gap counted', async () => (await page.textContent('[data-figure="seq-anomalies"]')).startsWith('1 /'));
    await eventually('the dead letter listed by reason', async () =>
      (await page.textContent('#dead-letters tbody')).includes('undecodable'));
    await sleep(2500); // one more poll, so that the charts have their latest points
    await page.screenshot({ path: screenshotPath('ops-dashboard'), fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    running = false;
    await traffic;
    await browser.close();
  }
  assert.ok(sent > 0);
});

const PER_REPLICA = new Set(['seqsync_postgres_replica_lag_seconds']);

test('every metric the alert rules and the Grafana dashboard name is served at /metrics', async () => {
  const scrape = async () => new Set((await (await fetch(`${app.baseUrl}/metrics`)).text()).split('\n')
    .filter((line) => line && !line.startsWith('#')).map((line) => line.split(/[{ ]/)[0]));
  // Dead letters by reason are served once there is one.
  await inject('--undecodable-command', TRAFFIC_CONV);
  const served = await eventually('dead letters by reason at /metrics',
    async () => ((await scrape()).has('seqsync_dead_letter_records') ? scrape() : null));
  for (const file of ['docker/prometheus/alerts.yml', 'docker/grafana/dashboards/seqsync.json']) {
    const named = new Set(readFileSync(join(REPO, file), 'utf8').match(/\b(seqsync|http_server)_[a-z0-9_]+/g));
    assert.ok(named.size > 5, `${file} names metrics`);
    // A gauge per read replica exists only with replicas (this app has none): ShardsEndToEndTest reads it.
    const missing = [...named].filter((name) => !served.has(name) && !PER_REPLICA.has(name));
    assert.deepEqual(missing, [], `${file}: metrics not served by the app`);
  }
});

// Debian's Prometheus (the package scripts/test-setup installs for promtool) scraping this app every
// second with docker/prometheus/alerts.yml: every rule evaluates without error, every query of the
// Grafana dashboard runs, and a seq gap and a dead letter injected now fire their alerts.
test('a real Prometheus scraping the app evaluates the rules and the dashboard\'s queries; injected faults fire their alerts', async () => {
  await promisify(execFile)('prometheus', ['--version']); // Debian's prometheus: scripts/test-setup installs it
  const dir = mkdtempSync(join(OUTPUT, 'prometheus-'));
  const port = await freePort();
  writeFileSync(join(dir, 'prometheus.yml'), [
    'global: {scrape_interval: 1s, evaluation_interval: 1s}',
    `rule_files: ["${join(REPO, 'docker', 'prometheus', 'alerts.yml')}"]`,
    `scrape_configs: [{job_name: seqsync, static_configs: [{targets: ["127.0.0.1:${app.ports.http}"]}]}]`, ''].join('\n'));
  const prometheus = spawn('prometheus', [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
  const exited = new Promise((resolve) => prometheus.once('exit', resolve));
  const api = async (path) => (await (await fetch(`http://127.0.0.1:${port}/api/v1/${path}`)).json());
  try {
    await eventually('Prometheus scraping the app', async () => {
      const up = await api('query?query=up').catch(() => null);
      return up && up.data.result.some((series) => series.value[1] === '1');
    });
    await sleep(3000); // a few samples before the faults, so that their step shows
    await inject('--gap-in', GAP_CONV, '--seq', '5', '--undecodable-command', GAP_CONV); // latest is 3: a gap
    await eventually('the seq-step and dead-letter alerts firing', async () => {
      const alerts = (await api('alerts')).data.alerts.filter((alert) => alert.state === 'firing').map((alert) => alert.labels.alertname);
      return alerts.includes('SeqsyncSeqStepNotPlusOne') && alerts.includes('SeqsyncDeadLettersGrowing') ? alerts : null;
    });
    const rules = (await api('rules')).data.groups.flatMap((group) => group.rules);
    const written = readFileSync(join(REPO, 'docker', 'prometheus', 'alerts.yml'), 'utf8').match(/^\s*- alert:/gm);
    assert.equal(rules.length, written.length); // every rule of the file loaded
    for (const rule of rules) assert.equal(rule.health, 'ok', `${rule.name}: ${rule.lastError}`);
    const dashboard = JSON.parse(readFileSync(join(REPO, 'docker', 'grafana', 'dashboards', 'seqsync.json'), 'utf8'));
    for (const target of dashboard.panels.flatMap((panel) => panel.targets)) {
      const answer = await api(`query?query=${encodeURIComponent(target.expr)}`);
      assert.equal(answer.status, 'success', `${target.expr}: ${answer.error}`);
    }
  } finally {
    prometheus.kill('SIGTERM');
    await exited;
  }
});
