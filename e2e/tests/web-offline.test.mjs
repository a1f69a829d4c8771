// The web client offline (issue 40), in headless Chromium against the real app: the library's
// IndexedDbStore held to the stores' contract in the page; the shell cached by the service worker
// and the page installable; a signed-in page reloaded with the network off showing its list and
// messages from IndexedDB; sends made offline waiting, marked, also across a reload, and delivered
// once and in order when the network is back, with a recall made meanwhile applied; local messages cleared and fetched again, with the
// cursor never moving back nor acked past the server's. Playwright's setOffline fails new requests
// but leaves an open socket up: the client drops it on the browser's `offline` event, and the test
// checks it did.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedApp } from '../lib/app.mjs';
import { launchChromium, screenshotPath } from '../lib/browser.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { ChatPage } from '../lib/chat-page.mjs';
import { checkStoreContract } from '../../clients/js/test/store-contract.mjs';

const CONV = 'd:1:2';
const HISTORY = 30;
const app = sharedApp('plain', 'web-offline');
let browser;
let laptop; // user 1
let other; // user 2, over HTTP

before(async () => {
  await app.start();
  other = new Caller(app, 2, 'desk');
  for (let i = 1; i <= HISTORY; i += 1) await other.send(CONV, `before ${i}`);
  browser = await launchChromium();
  laptop = await ChatPage.signIn(browser, app, 1, 'laptop');
}, { timeout: 300_000 });

after(async () => {
  await browser?.close();
  await app.stop();
});

const shot = (step) => laptop.page.screenshot({ path: screenshotPath(`web-offline-${step}`) });
const texts = () => laptop.page.locator('#messages li .text').allTextContents();
/** The device's server cursor, as the server holds it. */
const serverCursor = async () => (await new Caller(app, 1, 'laptop').activation(CONV)).deviceCursor;
/** The cursor in the page's IndexedDB. */
const storedCursor = () => laptop.page.evaluate(async (convId) => (await window.seqsync.store.loadCursors())[convId], CONV);

test('IndexedDbStore keeps the stores\' contract in Chromium', async () => {
  const passed = await laptop.page.evaluate(`(${checkStoreContract})({
    fresh: async () => {
      const { IndexedDbStore } = await import('/web/lib/index.js');
      return new IndexedDbStore('contract-' + Math.random());
    },
    reopen: async (store) => {
      (await store.db()).close();
      return new store.constructor(store.name);
    },
  })`);
  assert.equal(passed.length, 7);
});

test('the service worker serves the shell and the page is installable', async () => {
  await laptop.until(() => navigator.serviceWorker.controller !== null);
  await laptop.until(async () => Boolean(await (await caches.open('seqsync-shell')).match('/web/lib/local-copy.js')));
  const cdp = await laptop.context.newCDPSession(laptop.page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  // Playwright's contexts are incognito, where Chromium installs nothing: that is the only objection.
  assert.deepEqual(installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito'), []);
  const { url, errors } = await cdp.send('Page.getAppManifest');
  assert.match(url, /\/web\/manifest\.json$/);
  assert.deepEqual(errors, []);
  await cdp.detach();
});

test('a signed-in page reloaded with the network off shows its list and messages', async () => {
  await laptop.conversation(CONV).waitFor();
  await laptop.open(CONV);
  await laptop.page.locator('#messages li[data-seq]', { hasText: `before ${HISTORY}` }).waitFor();
  const shown = await laptop.shownSeqs();
  await eventually(storedCursor, (seq) => seq === HISTORY, { what: 'the rendered messages acked and stored' });

  await laptop.context.setOffline(true);
  await laptop.page.locator('#banner.offline', { hasText: 'Offline' }).waitFor({ timeout: 10_000 });
  await laptop.until(() => window.seqsync.state !== 'live'); // the socket was dropped, not left fed nothing
  await laptop.page.reload();
  await laptop.page.locator('#chat').waitFor({ state: 'visible' });
  await laptop.page.locator('#banner.offline', { hasText: 'Offline' }).waitFor();
  await laptop.conversation(CONV).locator('.last', { hasText: `before ${HISTORY}` }).waitFor({ timeout: 10_000 });
  await laptop.open(CONV);
  await laptop.page.locator('#messages li[data-seq]', { hasText: `before ${HISTORY}` }).waitFor({ timeout: 10_000 });
  assert.deepEqual(await laptop.shownSeqs(), shown, 'what was shown before the reload, from the device');
  assert.equal(await laptop.page.evaluate(() => window.seqsync.state === 'live'), false);
  await shot('1-offline-reload');
});

test('messages sent offline wait, marked, across a reload, and are delivered once and in order when the network is back', async () => {
  // Meanwhile user 2 recalls a message the device shows: applied when the device is back, shown once.
  await other.call('POST', `/v1/conversations/${CONV}/messages/${HISTORY}/recall`);
  await laptop.send('offline 1');
  await laptop.send('offline 2');
  const waiting = laptop.page.locator('#messages li.pending');
  await waiting.nth(1).waitFor();
  assert.match(await waiting.first().locator('.pending-mark').evaluate((mark) => mark.textContent + getComputedStyle(mark, '::after').content),
    /sending….*offline: waits in the outbox/);
  await laptop.page.reload(); // still offline: the outbox is in IndexedDB
  await laptop.page.locator('#chat').waitFor({ state: 'visible' });
  await laptop.open(CONV);
  assert.deepEqual(await laptop.page.locator('#messages li.pending .text').allTextContents(), ['offline 1', 'offline 2']);
  await shot('2-waiting');

  await laptop.context.setOffline(false);
  await laptop.page.locator('#messages li.pending').first().waitFor({ state: 'detached', timeout: 30_000 });
  await laptop.page.locator('#messages li.pending').waitFor({ state: 'detached', timeout: 30_000 });
  await laptop.page.locator('#banner').waitFor({ state: 'hidden', timeout: 30_000 });
  const committed = (await other.page(CONV, { after: HISTORY })).messages;
  assert.deepEqual(committed.map((m) => [m.seq, m.type, m.content]),
    [[HISTORY + 1, 'recall', String(HISTORY)], [HISTORY + 2, 'text', 'offline 1'], [HISTORY + 3, 'text', 'offline 2']]);
  await laptop.page.locator(`#messages li.recalled[data-seq="${HISTORY}"]`).waitFor({ timeout: 15_000 });
  const shownTexts = await texts();
  for (const text of ['offline 1', 'offline 2']) assert.equal(shownTexts.filter((t) => t === text).length, 1, text);
  assert.deepEqual(await laptop.shownSeqs(), Array.from({ length: HISTORY + 3 - 10 }, (_, i) => i + 11), 'each seq once, in order');
  await shot('3-delivered');
});

test('cleared local messages are fetched again, the cursor never moving back nor acked past the server\'s', async () => {
  const latest = HISTORY + 3;
  await eventually(serverCursor, (seq) => seq === latest, { what: 'the server cursor at the latest' });
  await eventually(storedCursor, (seq) => seq === latest, { what: 'the stored cursor at the latest' });
  const acks = [];
  laptop.page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/acks') acks.push(...request.postDataJSON().acks.map((ack) => ack.seq));
  });
  // Measured at once: the emptied view scrolls to its top, which asks for a page again.
  const left = await laptop.page.evaluate(async (convId) => {
    await window.seqsync.clearLocalMessages();
    return [(await window.seqsync.store.loadMessages(convId, { limit: 1000 })).length, window.seqsync.messages(convId).length];
  }, CONV);
  assert.deepEqual(left, [0, 0], 'none in the store, none in memory');
  await laptop.page.reload();
  await laptop.page.locator('#chat').waitFor({ state: 'visible' });
  await laptop.open(CONV);
  await laptop.page.locator('#messages li[data-seq]', { hasText: 'offline 2' }).waitFor({ timeout: 15_000 });
  for (let i = 0; i < 3 && (await laptop.shownSeqs())[0] !== 1; i += 1) {
    const count = (await laptop.shownSeqs()).length;
    await laptop.page.locator('#scroller').evaluate((scroller) => { scroller.scrollTop = 0; scroller.dispatchEvent(new Event('scroll')); });
    await laptop.until((n) => document.querySelectorAll('#messages li[data-seq]').length > n, count);
  }
  assert.deepEqual(await laptop.shownSeqs(), Array.from({ length: latest }, (_, i) => i + 1), 'every message again, once');
  await new Promise((resolve) => setTimeout(resolve, 500)); // past the ack batch (200 ms)
  assert.equal(await storedCursor(), latest, 'the stored cursor did not move');
  assert.equal(await serverCursor(), latest, 'the server cursor did not move');
  assert.ok(acks.every((seq) => seq === latest), `acks sent: ${acks}`);

  // The next message moves both cursors forward, as ever.
  await other.send(CONV, 'after the clearing');
  await laptop.page.locator('#messages li[data-seq]', { hasText: 'after the clearing' }).waitFor({ timeout: 15_000 });
  await eventually(serverCursor, (seq) => seq === latest + 1, { what: 'the ack of the new message' });
  assert.ok(acks.every((seq) => seq >= latest && seq <= latest + 1), `acks sent: ${acks}`);
  await shot('4-refetched');
});
