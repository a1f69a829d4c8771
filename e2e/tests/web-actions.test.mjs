// Message actions in the web client, in headless Chromium against the real app: user 21 mentions
// user 22 through the autocomplete, 22 sees the mention in the list, reacts, 21 edits, 22 replies
// with a quote; the edit and the reaction appear on 21's other device too. Screenshots are kept in
// e2e/output/screenshots.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedApp } from '../lib/app.mjs';
import { launchChromium } from '../lib/browser.mjs';
import { ChatPage } from '../lib/chat-page.mjs';

const CONV = 'd:21:22';
const app = sharedApp('long-reply-budget', 'web-actions');
let browser;
let laptop; // user 21
let desk;   // user 22
let phone;  // user 21's other device

before(async () => {
  await app.start();
  browser = await launchChromium();
  [laptop, desk, phone] = await Promise.all([
    ChatPage.signIn(browser, app, 21, 'laptop'), ChatPage.signIn(browser, app, 22, 'desk'), ChatPage.signIn(browser, app, 21, 'phone'),
  ]);
}, { timeout: 300_000 });

after(async () => {
  await browser?.close();
  await app.stop();
});

const message = (device, text) => device.page.locator('#messages li[data-seq]', { hasText: text });

test('a mention by autocomplete, a reaction, an edit and a reply show on the other user\'s and the other device\'s screens', async () => {
  await laptop.page.locator('#new-chat input').fill('22');
  await laptop.page.locator('#new-chat button').click();
  await laptop.page.locator('#conversation').waitFor({ state: 'visible' });
  const box = laptop.page.locator('#composer textarea');
  await box.fill('helo @2');
  await box.dispatchEvent('input');
  await laptop.page.locator('#mention-suggestions button', { hasText: '@22' }).click();
  assert.equal(await box.inputValue(), 'helo @22 ');
  await box.press('Enter');
  await message(laptop, 'helo @22').waitFor({ timeout: 15_000 });

  await desk.conversation(CONV).locator('.mention-badge', { hasText: '@1' }).waitFor({ timeout: 15_000 });
  await desk.open(CONV);
  await desk.page.locator('#messages li.mentions-me', { hasText: 'helo @22' }).waitFor({ timeout: 15_000 });
  await desk.conversation(CONV).locator('.mention-badge').waitFor({ state: 'detached', timeout: 15_000 });

  await message(desk, 'helo @22').locator('.message-tools button.react', { hasText: '👍' }).click();
  await message(laptop, 'helo @22').locator('.reaction', { hasText: '👍 1' }).waitFor({ timeout: 15_000 });

  await message(laptop, 'helo @22').locator('button.edit').click();
  await laptop.page.locator('#action-bar', { hasText: 'Editing' }).waitFor();
  await box.fill('hello @22');
  await box.press('Enter');
  await message(desk, 'hello @22').locator('.edited').waitFor({ timeout: 15_000 });
  assert.equal(await message(desk, 'helo').count(), 0, 'the old text is gone');
  assert.equal(await desk.page.locator('#messages li.action-notice:not([hidden])').count(), 0, 'notices are not chat lines');

  await message(desk, 'hello @22').locator('button.reply').click();
  await desk.page.locator('#action-bar', { hasText: 'Replying to' }).waitFor();
  await desk.send('glad you fixed it');
  await message(laptop, 'glad you fixed it').locator('.reply-quote', { hasText: 'hello @22' }).waitFor({ timeout: 15_000 });

  await phone.conversation(CONV).waitFor({ timeout: 15_000 });
  await phone.open(CONV);
  await message(phone, 'hello @22').locator('.edited').waitFor({ timeout: 15_000 });
  await message(phone, 'hello @22').locator('.reaction', { hasText: '👍 1' }).waitFor({ timeout: 15_000 });
  // A reaction made on one device of a user is "mine" on the other.
  await message(laptop, 'glad you fixed it').locator('.message-tools button.react', { hasText: '🎉' }).click();
  await message(phone, 'glad you fixed it').locator('.reaction.mine', { hasText: '🎉 1' }).waitFor({ timeout: 15_000 });
  await message(desk, 'glad you fixed it').locator('.reaction:not(.mine)', { hasText: '🎉 1' }).waitFor({ timeout: 15_000 });
  await Promise.all([laptop.screenshot('actions-laptop'), desk.screenshot('actions-desk'), phone.screenshot('actions-phone')]);
});
