// The adopting team's backend against the real app: the server API with a service token (and
// never with a user's, nor a service token on a user's route), idempotent by Idempotency-Key;
// webhooks received by a real HTTP server on loopback that verifies every Standard Webhooks
// signature, once per message and in seq order per conversation; the pre-send hook (a moderation
// server on loopback) rejecting with its reason, rewriting, and failing closed when slow.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { App } from '../lib/app.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { mintServiceToken } from '../lib/tokens.mjs';

const SYSTEM = '9223372036854775807';
const WEBHOOK_KEY = randomBytes(32);
const HOOK_BUDGET_MS = 1500;

const received = []; // every webhook request: { id, timestamp, verified, event }
const moderated = []; // every pre-send hook call
const webhooks = await listen((request, body, response) => {
  const id = request.headers['webhook-id'];
  const timestamp = request.headers['webhook-timestamp'];
  const expected = createHmac('sha256', WEBHOOK_KEY).update(`${id}.${timestamp}.`).update(body).digest();
  const verified = (request.headers['webhook-signature'] ?? '').split(' ').some((signature) => {
    const [version, value] = signature.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  }) && Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  received.push({ id, timestamp, verified, event: JSON.parse(body) });
  response.writeHead(verified ? 204 : 401).end();
});
const moderation = await listen(async (request, body, response) => {
  const call = JSON.parse(body);
  moderated.push(call);
  const answers = {
    spam: { action: 'reject', reason: 'no spam in this chat' },
    darn: { action: 'rewrite', content: 'd**n' },
  };
  if (call.content === 'slow') await new Promise((resolve) => setTimeout(resolve, HOOK_BUDGET_MS * 3));
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[call.content] ?? { action: 'allow' }));
});

const app = new App({
  name: 'integrations',
  env: {
    SEQSYNC_WEBHOOKS_URL: `http://127.0.0.1:${webhooks.address().port}/seqsync`,
    SEQSYNC_WEBHOOKS_SECRET: `whsec_${WEBHOOK_KEY.toString('base64')}`,
    SEQSYNC_WEBHOOKS_BACKOFF: '200ms',
    SEQSYNC_HOOKS_PRE_SEND_URL: `http://127.0.0.1:${moderation.address().port}/moderate`,
    SEQSYNC_HOOKS_PRE_SEND_BUDGET: `${HOOK_BUDGET_MS}ms`,
    SEQSYNC_HOOKS_PRE_SEND_ON_FAILURE: 'closed',
  },
});
before(() => app.start(), { timeout: 240_000 });
after(async () => {
  await app.stop();
  webhooks.close();
  moderation.close();
});

let group;

test('the server API takes a service token, never a user\'s; a service token opens no user route', async () => {
  const backend = serverCaller(mintServiceToken(app.secret, 'backend'));
  const created = await backend('POST', '/v1/server/users/701/groups', { name: 'Team', members: ['702', '703'] },
    { 'idempotency-key': 'create-team' });
  assert.ok([201, 202].includes(created.status), JSON.stringify(created));
  group = created.body.convId;

  const again = await backend('POST', '/v1/server/users/701/groups', { name: 'Team', members: ['702', '703'] },
    { 'idempotency-key': 'create-team' });
  assert.equal(again.status, created.status);
  assert.equal(again.body.convId, group, 'a retry with the key gets the first answer, not a second group');
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  const reused = await backend('POST', '/v1/server/users/701/groups', { name: 'Other' }, { 'idempotency-key': 'create-team' });
  assert.equal(reused.status, 422);
  assert.equal(reused.body.error.code, 'idempotency_key_reused');

  // A 202 means the group is accepted, not yet stored: the backend waits for it as a client would.
  await eventually(() => backend('GET', '/v1/server/users/701/conversations'),
    (list) => list.body.conversations.some((entry) => entry.convId === group), { what: 'the new group listed' });
  const notice = await backend('POST', `/v1/server/conversations/${group}/messages`,
    { clientMsgId: 'welcome-1', type: 'text', content: 'Welcome to the team' });
  assert.equal(notice.status, 200, JSON.stringify(notice.body));
  assert.equal(notice.body.message.senderId, SYSTEM);
  const asUser = await backend('POST', `/v1/server/users/702/conversations/${group}/messages`,
    { clientMsgId: 'hello-702', type: 'text', content: 'hello from 702' });
  assert.equal(asUser.status, 200, JSON.stringify(asUser.body));
  assert.equal(asUser.body.message.senderId, '702');
  assert.equal(asUser.body.message.senderDevice, 'server');

  const list = await backend('GET', '/v1/server/users/703/conversations');
  assert.equal(list.status, 200);
  assert.ok(list.body.conversations.some((entry) => entry.convId === group), JSON.stringify(list.body));

  const member = new Caller(app, 703, 'phone');
  const asMember = serverCaller(member.token);
  const refused = await asMember('GET', '/v1/server/users/703/conversations');
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'not_a_service');
  const onUserRoute = await backend('GET', '/v1/conversations');
  assert.equal(onUserRoute.status, 401);
  assert.equal(onUserRoute.body.error.code, 'service_token');

  await member.activation(group); // the member's token works until the backend signs the user out
  const signedOut = await backend('POST', '/v1/server/users/703/sign-out', {}, { 'idempotency-key': 'out-703' });
  assert.equal(signedOut.status, 200);
  assert.equal(signedOut.body.signedOut, '*');
  const retried = await backend('POST', '/v1/server/users/703/sign-out', {}, { 'idempotency-key': 'out-703' });
  assert.deepEqual(retried.body, signedOut.body, 'the retry changes nothing: the same sign-out time');
  const afterSignOut = await asMember('GET', '/v1/conversations');
  assert.equal(afterSignOut.status, 401);
  assert.equal(afterSignOut.body.error.code, 'token_revoked');

  const removed = await backend('POST', `/v1/server/users/701/conversations/${group}/members`, { remove: ['703'] });
  assert.equal(removed.status, 202, JSON.stringify(removed.body));
});

test('webhooks: each message once, in seq order per conversation, every request signed', { timeout: 120_000 }, async () => {
  const a = new Caller(app, 801, 'phone');
  const c = new Caller(app, 803, 'phone');
  await Promise.all([a.sendMany('d:801:802', 20, 'a-', 4), c.sendMany('d:803:804', 10, 'c-', 4)]);
  await a.call('POST', '/v1/conversations/d:801:802/messages/3/recall');
  await new Caller(app, 802, 'phone').call('POST', '/v1/reads', { convId: 'd:801:802', seq: 20 });

  const ofConv = (convId, type) => received.filter((r) => r.event.type === type && r.event.data.convId === convId);
  await eventually(async () => ofConv('d:801:802', 'message.sent').length + ofConv('d:803:804', 'message.sent').length,
    (count) => count >= 30, { timeoutMs: 60_000, what: '30 message.sent webhooks' });
  await eventually(async () => ofConv('d:801:802', 'read').length + ofConv('d:801:802', 'message.recalled').length
    + ofConv(group, 'membership.changed').length, (count) => count >= 4,
  { timeoutMs: 30_000, what: 'the read, the recall and the group\'s two membership changes' });

  assert.deepEqual(received.filter((r) => !r.verified), [], 'every signature verifies');
  for (const [convId, count] of [['d:801:802', 20], ['d:803:804', 10]]) {
    const seqs = ofConv(convId, 'message.sent').map((r) => r.event.data.seq);
    assert.deepEqual(seqs, Array.from({ length: count }, (_, i) => i + 1), `${convId}: once each, in seq order`);
  }
  const ids = received.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'no event delivered twice');
  assert.equal(ofConv('d:801:802', 'message.recalled')[0].event.data.seq, 3);
  assert.equal(ofConv('d:801:802', 'read')[0].event.data.userId, '802');
  const membership = received.filter((r) => r.event.type === 'membership.changed' && r.event.data.convId === group);
  assert.deepEqual(membership.map((r) => r.event.data.removed), [[], ['703']], 'the group\'s creation, then the removal');
  const system = received.find((r) => r.event.type === 'message.sent' && r.event.data.clientMsgId === 'welcome-1');
  assert.equal(system?.event.data.senderId, SYSTEM);
});

test('the pre-send hook rejects with its reason, rewrites, and a slow hook fails closed as set', async () => {
  const sender = new Caller(app, 901, 'phone');
  const send = (content) => fetch(`${app.baseUrl}/v1/conversations/d:901:902/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sender.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ clientMsgId: `m-${content}`, type: 'text', content }),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));

  const rejected = await send('spam');
  assert.equal(rejected.status, 403);
  assert.deepEqual(rejected.body.error, { code: 'rejected', message: 'no spam in this chat' });
  const rewritten = await send('darn');
  assert.equal(rewritten.status, 200);
  assert.equal(rewritten.body.message.content, 'd**n');
  const slow = await send('slow');
  assert.equal(slow.status, 503);
  assert.equal(slow.body.error.code, 'moderation_unavailable');
  const allowed = await send('hello');
  assert.equal(allowed.status, 200);

  const page = await sender.page('d:901:902', { limit: 10 });
  assert.deepEqual(page.messages.map((m) => m.content), ['d**n', 'hello'], 'only what the hook let through is stored');
  const asked = moderated.filter((call) => call.convId === 'd:901:902');
  assert.deepEqual(asked.map((call) => call.content), ['spam', 'darn', 'slow', 'hello']);
  assert.equal(asked[0].senderId, '901');
});

// A server on a free loopback port calling `handle(request, body, response)` with the whole body.
async function listen(handle) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => handle(request, Buffer.concat(chunks).toString('utf8'), response));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

// The backend's HTTP calls: status, headers and parsed body, whatever the status.
function serverCaller(token) {
  return async (method, path, body, headers = {}) => {
    const response = await fetch(app.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };
}
