// Attachments against the real app and its embedded S3 server (s3proxy, filesystem-backed): an
// upload through a presigned PUT URL and a download through a presigned GET URL that only members
// get; another user's object refused in a send; limits answered 413 and 415; an expired URL refused
// by the store; a recalled message's attachment no longer served; and in Chromium, an image one
// person attaches shows on the other's screen. One app for all (URLs live 6 s here).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { App, sleep } from '../lib/app.mjs';
import { launchChromium, screenshotPath } from '../lib/browser.mjs';
import { Caller } from '../lib/http.mjs';
import { ChatPage } from '../lib/chat-page.mjs';

const URL_TTL_MS = 6_000;
const app = new App({ name: 'web-attachments', env: { SEQSYNC_ATTACHMENTS_URL_TTL: `${URL_TTL_MS / 1000}s` } });
// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const CONV = 'd:21:22';
let alice;
let bob;
let eve;
let browser;

before(async () => {
  await app.start();
  [alice, bob, eve] = [new Caller(app, 21, 'phone'), new Caller(app, 22, 'laptop'), new Caller(app, 23, 'tablet')];
}, { timeout: 300_000 });

after(async () => {
  await browser?.close();
  await app.stop();
});

async function status(caller, method, path, body) {
  const response = await fetch(app.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${caller.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

async function upload(caller, bytes, type, name) {
  const ticket = await caller.call('POST', '/v1/uploads', { size: bytes.length, type, name });
  const put = await fetch(ticket.url, { method: ticket.method, headers: ticket.headers, body: bytes });
  assert.equal(put.status, 200, `the store took the upload: ${await put.text()}`);
  return ticket;
}

// A send answered 202 (no seq within the reply budget, as on a loaded machine just started) is
// retried with its clientMsgId until it is answered with the stored message.
async function sendImage(caller, convId, key) {
  const body = {
    clientMsgId: `img-${Math.random().toString(36).slice(2)}`, type: 'image', content: 'a dot',
    attachment: { key, size: PNG.length, contentType: 'image/png', name: 'dot.png', width: 1, height: 1 },
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await caller.call('POST', `/v1/conversations/${convId}/messages`, body);
    if (answer.message || Date.now() > deadline) return answer;
    await sleep(200);
  }
}

test('an image uploaded through its URL is sent, fetched with its attachment and downloaded by the other member', async () => {
  const ticket = await upload(alice, PNG, 'image/png', 'dot.png');
  assert.match(ticket.key, /^u\/21\/[0-9a-f]{32}$/);
  const sent = await sendImage(alice, CONV, ticket.key);
  assert.deepEqual(sent.message.attachment,
    { key: ticket.key, size: PNG.length, contentType: 'image/png', name: 'dot.png', width: 1, height: 1 });

  const page = await bob.page(CONV, { after: 0 });
  const fetched = page.messages.find((message) => message.seq === sent.message.seq);
  assert.equal(fetched.attachment.key, ticket.key);
  const download = await bob.call('GET', `/v1/conversations/${CONV}/messages/${sent.message.seq}/attachment`);
  assert.ok(download.expiresAt > Date.now() && download.expiresAt <= Date.now() + URL_TTL_MS + 1000);
  const bytes = await fetch(download.url);
  assert.equal(bytes.status, 200);
  assert.equal(bytes.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await bytes.arrayBuffer()), PNG);
});

test('a non-member gets no URL, and nobody can send another user\'s object or one beyond the limits', async () => {
  const ticket = await upload(alice, PNG, 'image/png', 'dot.png');
  const { message } = await sendImage(alice, CONV, ticket.key);

  const refused = await status(eve, 'GET', `/v1/conversations/${CONV}/messages/${message.seq}/attachment`);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'not_a_member');
  assert.equal(refused.body.url, undefined);

  const stolen = await status(eve, 'POST', '/v1/conversations/d:23:24/messages', {
    clientMsgId: 'steal-1', type: 'image', content: '',
    attachment: { key: ticket.key, size: PNG.length, contentType: 'image/png', name: 'mine.png' },
  });
  assert.equal(stolen.status, 400);
  assert.equal(stolen.body.error.code, 'invalid_attachment');

  assert.equal((await status(alice, 'POST', '/v1/uploads', { size: 26 * 1024 * 1024, type: 'image/png', name: 'big.png' })).status, 413);
  assert.equal((await status(alice, 'POST', '/v1/uploads', { size: 10, type: 'text/html', name: 'x.html' })).status, 415);
});

test('a download URL expires, and a recalled message\'s attachment is no longer served', async () => {
  const ticket = await upload(alice, PNG, 'image/png', 'dot.png');
  const { message } = await sendImage(alice, CONV, ticket.key);
  const { url } = await bob.call('GET', `/v1/conversations/${CONV}/messages/${message.seq}/attachment`);
  assert.equal((await fetch(url)).status, 200);

  await alice.call('POST', `/v1/conversations/${CONV}/messages/${message.seq}/recall`);
  const gone = await status(bob, 'GET', `/v1/conversations/${CONV}/messages/${message.seq}/attachment`);
  assert.equal(gone.status, 410);
  assert.equal(gone.body.error.code, 'recalled');

  await sleep(URL_TTL_MS + 1_500);
  assert.equal((await fetch(url)).status, 403, 'the store refuses an expired URL');
});

test('in Chromium, an image one person attaches shows on the other person\'s screen', async () => {
  browser = await launchChromium();
  const [sender, receiver] = await Promise.all([ChatPage.signIn(browser, app, 31, 'laptop'), ChatPage.signIn(browser, app, 32, 'desk')]);
  for (const [who, chat] of [['sender', sender], ['receiver', receiver]]) {
    chat.page.on('console', (m) => { if (m.type() === 'error') console.log(`[${who}]`, m.text()); });
  }
  await sender.page.locator('#new-chat input[name=userId]').fill('32');
  await sender.page.locator('#new-chat button').click();
  await sender.page.locator('#conversation').waitFor({ state: 'visible' });
  await sender.page.locator('#attach-file').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
  await sender.until(() => document.querySelector('#messages li[data-seq] .attachment img')?.naturalWidth === 1);

  await receiver.conversation('d:31:32').waitFor({ timeout: 30_000 });
  await receiver.open('d:31:32');
  await receiver.until(() => {
    const image = document.querySelector('#messages li[data-seq] .attachment img');
    return image?.complete && image.naturalWidth === 1 && image.src.includes('/u/31/');
  });
  assert.match(await receiver.conversation('d:31:32').innerText(), /\[image\] dot\.png/);
  await receiver.page.screenshot({ path: screenshotPath('web-attachments-receiver') });
  await Promise.all([sender.close(), receiver.close()]);
});
