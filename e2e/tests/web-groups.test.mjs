// The web client's group roles, leaving and blocking in headless Chromium against the real app:
// the owner (user 11) names user 12 admin and lets members invite; the plain member (user 13)
// sees no role controls and cannot add until then; the owner leaves and user 12 becomes the
// owner; user 11 blocks user 14 from the direct conversation's header, and 14's sends are
// refused until the unblock. Screenshots are kept in e2e/output/screenshots.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedApp } from '../lib/app.mjs';
import { launchChromium } from '../lib/browser.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { ChatPage } from '../lib/chat-page.mjs';

const app = sharedApp('plain', 'web-groups');
let browser;
let owner;  // user 11
let admin;  // user 12
let plain;  // user 13

before(async () => {
  await app.start();
  browser = await launchChromium();
  [owner, admin, plain] = await Promise.all([
    ChatPage.signIn(browser, app, 11, 'laptop'), ChatPage.signIn(browser, app, 12, 'desk'), ChatPage.signIn(browser, app, 13, 'phone'),
  ]);
}, { timeout: 300_000 });

after(async () => {
  await browser?.close();
  await app.stop();
});

test('the owner gives roles and settings; a plain member sees no controls; the owner leaves and ownership passes', async () => {
  await owner.page.locator('#new-group input[name=name]').fill('Crew');
  await owner.page.locator('#new-group input[name=members]').fill('12, 13');
  await owner.page.locator('#new-group button').click();
  await owner.page.locator('#title', { hasText: 'Crew' }).waitFor();
  const convId = await owner.page.locator('#messages ol').getAttribute('data-conv');
  await owner.page.locator('#my-role', { hasText: 'You are owner' }).waitFor({ timeout: 15_000 });

  await plain.conversation(convId).waitFor({ timeout: 15_000 });
  await plain.open(convId);
  await plain.page.locator('#my-role', { hasText: 'You are member' }).waitFor({ timeout: 15_000 });
  assert.equal(await plain.page.locator('#add-member').isHidden(), true, 'a plain member has no add form');
  assert.equal(await plain.page.locator('#set-role').isHidden(), true);
  assert.equal(await plain.page.locator('#invite-setting').isHidden(), true);
  await admin.conversation(convId).waitFor({ timeout: 15_000 });
  await admin.open(convId);

  await owner.page.locator('#set-role input[name=userId]').fill('12');
  await owner.page.locator('#set-role select').selectOption('admin');
  await owner.page.locator('#set-role button').click();
  for (const device of [owner, admin, plain]) {
    await device.page.locator('#messages li.notice', { hasText: '12 is admin' }).waitFor({ timeout: 15_000 });
  }
  await admin.page.locator('#my-role', { hasText: 'You are admin' }).waitFor({ timeout: 15_000 });
  await admin.page.locator('#invite-setting').waitFor();
  await admin.page.locator('#invite-setting input').check();
  await plain.page.locator('#messages li.notice', { hasText: 'members can invite' }).waitFor({ timeout: 15_000 });
  await plain.page.locator('#add-member').waitFor({ state: 'visible', timeout: 15_000 });
  await Promise.all([owner.screenshot('groups-1-roles'), plain.screenshot('groups-1-member')]);

  await owner.page.locator('#leave').click();
  for (const device of [admin, plain]) {
    await device.page.locator('#messages li.notice', { hasText: 'removed 11; 12 is owner' }).waitFor({ timeout: 15_000 });
  }
  await admin.page.locator('#my-role', { hasText: 'You are owner' }).waitFor({ timeout: 15_000 });
  await admin.page.locator('#set-role').waitFor({ state: 'visible' });
  const roles = (await new Caller(app, 13, 'check').activation(convId)).roles;
  assert.deepEqual(roles, { 12: 'owner' });
  await admin.screenshot('groups-2-new-owner');
});

test('blocking from a direct conversation refuses the other user\'s sends until the unblock', async () => {
  const conv = 'd:11:14';
  const blocked = new Caller(app, 14, 'phone');
  await blocked.send(conv, 'hello 11');
  await owner.conversation(conv).waitFor({ timeout: 15_000 });
  await owner.open(conv);
  await owner.page.locator('#block', { hasText: 'Block' }).click();
  await owner.page.locator('#block', { hasText: 'Unblock' }).waitFor();
  await assert.rejects(blocked.send(conv, 'are you there?'), /403 .*"blocked"/);
  await owner.page.locator('#messages li .text', { hasText: 'hello 11' }).waitFor();
  await owner.screenshot('groups-3-blocked');

  await owner.page.locator('#block', { hasText: 'Unblock' }).click();
  await owner.page.locator('#block', { hasText: /^Block$/ }).waitFor();
  await eventually(() => blocked.send(conv, 'back again').then(() => true, () => false), (sent) => sent,
    { what: 'a send after the unblock' });
  await owner.page.locator('#messages li .text', { hasText: 'back again' }).waitFor({ timeout: 15_000 });
});
