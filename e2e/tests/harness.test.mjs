// The harness itself: the app jar starts on free ports, a minted token is accepted, a forged one is
// not, Chromium reaches the app, and a restart on the same data keeps what was stored.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { App } from '../lib/app.mjs';
import { launchChromium, screenshotPath } from '../lib/browser.mjs';
import { mintToken } from '../lib/tokens.mjs';

const app = new App({ name: 'harness' });
before(() => app.start());
after(() => app.stop());

const authorized = (token) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

test('a minted token sends; a token signed with another secret is refused', async () => {
  const token = mintToken(app.secret, 11, 'phone');
  // Right after a start the sequencer may still be joining its group: a 202 is retried with the same clientMsgId.
  let sent;
  for (let attempt = 0; attempt < 30; attempt += 1) {
    sent = await fetch(`${app.baseUrl}/v1/conversations/d:11:12/messages`, {
      method: 'POST', headers: authorized(token), body: JSON.stringify({ clientMsgId: 'harness-1', type: 'text', content: 'hi' }),
    });
    if (sent.status === 200) break;
    assert.equal(sent.status, 202, await sent.text());
  }
  assert.equal(sent.status, 200, await sent.text());
  const forged = await fetch(`${app.baseUrl}/v1/conversations`, { headers: authorized(mintToken('x'.repeat(64), 11, 'phone')) });
  assert.equal(forged.status, 401);
});

test('Chromium reaches the app', async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const response = await page.goto(`${app.baseUrl}/health`);
    assert.equal(response.status(), 200);
    await page.screenshot({ path: screenshotPath('harness-health') });
  } finally {
    await browser.close();
  }
});

test('a restart keeps what was stored', async () => {
  await app.restart();
  const token = mintToken(app.secret, 12, 'laptop');
  const page = await fetch(`${app.baseUrl}/v1/conversations/d:11:12/messages?last=20`, { headers: authorized(token) });
  assert.equal(page.status, 200);
  const body = await page.json();
  assert.deepEqual(body.messages.map((message) => message.content), ['hi']);
});
