// A device's sends to one conversation are committed in the order it made them, with some of its
// requests slowed on the way: 200 library sends fired without awaiting (Node), and 100 messages
// typed into the web client as fast as the page takes them (Chromium). Every device shows that
// order: the sender's other device and the other member. The real app: the order is the one its
// sequencer gives, in the commands topic's partition order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedApp, sleep } from '../lib/app.mjs';
import { launchChromium } from '../lib/browser.mjs';
import { ChatPage } from '../lib/chat-page.mjs';
import { libraryClient } from '../lib/clients.mjs';
import { Caller, eventually } from '../lib/http.mjs';

const app = sharedApp('plain', 'send-order');
const open = [];
before(() => app.start(), { timeout: 240_000 });
after(async () => {
  await Promise.all(open.map((client) => client.close()));
  await app.stop();
});

/** Every 7th send is held 100-300 ms before it goes on its way. */
const slowed = (count) => count % 7 === 0;
const holdMs = () => 100 + Math.random() * 200;
const isSend = (method, url) => method === 'POST' && /^\/v1\/conversations\/[^/]+\/messages$/.test(new URL(url).pathname);

/** How many of `shown` are out of `typed` order: those outside a longest run in typed order. */
function outOfOrder(typed, shown) {
  const ranks = shown.map((text) => typed.indexOf(text));
  const tails = []; // longest increasing subsequence, patience sorting
  for (const rank of ranks) {
    let low = 0;
    let high = tails.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (tails[mid] < rank) low = mid + 1;
      else high = mid;
    }
    tails[low] = rank;
  }
  return shown.length - tails.length;
}

/** The conversation's texts in seq order, as the server has them (every page from the start). */
async function committedTexts(caller, convId) {
  const texts = [];
  for (let after = 0, page; !page || page.hasMore; after = page.nextAfter) {
    page = await caller.page(convId, { after, limit: 50 });
    texts.push(...page.messages.map((m) => m.content));
  }
  return texts;
}

test('200 library sends fired without awaiting, some slowed on the way, are committed in call order on every device', async () => {
  const conv = 'd:801:802';
  let sends = 0;
  const fetch = async (url, init = {}) => {
    if (isSend(init.method ?? 'GET', String(url)) && slowed(++sends)) await sleep(holdMs());
    return globalThis.fetch(url, init);
  };
  const client = (userId, deviceId, options) => {
    const made = libraryClient(app, userId, deviceId, options);
    open.push(made);
    return made;
  };
  const phone = client(801, 'phone', { fetch });
  const tablet = client(801, 'tablet');
  const friend = client(802, 'laptop');
  await Promise.all([phone, tablet, friend].map((c) => c.connect()));
  await Promise.all([phone, tablet, friend].map((c) => c.caughtUp()));

  const typed = Array.from({ length: 200 }, (_, i) => `burst ${i + 1}`);
  const started = Date.now();
  const pending = typed.map((text) => phone.send(conv, text));
  const committed = await Promise.all(pending.map((item) => item.committed));
  const tookMs = Date.now() - started;
  console.log(`200 sends to one conversation until all committed: ${tookMs} ms, ${(tookMs / 200).toFixed(1)} ms per message`);

  const server = await committedTexts(new Caller(app, 802, 'laptop'), conv);
  console.log(`library sends committed out of call order: ${outOfOrder(typed, server)} of ${typed.length}`);
  assert.deepEqual(server, typed, 'the server\'s seq order');
  assert.deepEqual(committed.map((m) => m.seq), typed.map((_, i) => i + 1), 'each send\'s seq in call order');
  for (const device of [phone, tablet, friend]) {
    await eventually(async () => device.messages(conv).length, (n) => n === typed.length, { what: `all 200 on ${device.me.deviceId}` });
    assert.deepEqual(device.messages(conv).map((m) => m.content), typed, `order on ${device.me.userId}/${device.me.deviceId}`);
    const handed = device.received.filter((event) => event.convId === conv);
    assert.deepEqual(handed.map((event) => event.content), typed, `handed over in order on ${device.me.deviceId}`);
  }
});

test('100 messages typed as fast as the web client takes them, some slowed on the way, show in typed order on every device', async () => {
  const conv = 'd:811:812';
  await new Caller(app, 812, 'seed').send(conv, 'hello');
  const browser = await launchChromium();
  try {
    const [laptop, phone, desk] = await Promise.all([
      ChatPage.signIn(browser, app, 811, 'laptop'), ChatPage.signIn(browser, app, 811, 'phone'), ChatPage.signIn(browser, app, 812, 'desk'),
    ]);
    let sends = 0;
    await laptop.page.route((url) => /\/v1\/conversations\/[^/]+\/messages$/.test(url.pathname), async (route) => {
      if (isSend(route.request().method(), route.request().url()) && slowed(++sends)) await sleep(holdMs());
      await route.continue();
    });
    for (const device of [laptop, phone, desk]) {
      await device.conversation(conv).waitFor({ timeout: 30_000 });
      await device.open(conv);
    }

    const typed = Array.from({ length: 100 }, (_, i) => `burst ${i + 1}`);
    for (const text of typed) await laptop.send(text);

    const expected = ['hello', ...typed];
    const server = await eventually(() => committedTexts(new Caller(app, 812, 'desk'), conv),
      (texts) => texts.length === expected.length, { timeoutMs: 120_000, what: '101 messages committed' });
    console.log(`typed messages committed out of typed order: ${outOfOrder(typed, server.slice(1))} of ${typed.length}`);
    for (const device of [laptop, phone, desk]) {
      await device.until((count) => document.querySelectorAll('#messages li[data-seq]').length === count && !document.querySelector('#messages li.pending'),
        expected.length, 120_000);
      const shown = await device.page.locator('#messages li[data-seq] .text').allTextContents();
      assert.deepEqual(await device.shownSeqs(), expected.map((_, i) => i + 1), `seqs on ${device.name}`);
      assert.deepEqual(shown, expected, `typed order on ${device.name}`);
    }
    assert.deepEqual(server, expected, 'the server\'s seq order');
    await Promise.all([laptop.screenshot('send-order'), phone.screenshot('send-order'), desk.screenshot('send-order')]);
  } finally {
    await browser.close();
  }
});
