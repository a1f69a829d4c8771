// The web chat client (served by the app at /) driven in a browser context: one signed-in device.
import { screenshotPath } from './browser.mjs';
import { mintToken } from './tokens.mjs';

export class ChatPage {
  /**
   * Opens the client in a context of its own and signs in with a token pasted into its form (the
   * harness's app has a secret of its own, so the development sign-in is off, as anywhere but
   * `scripts/run` with nothing configured).
   */
  static async signIn(browser, app, userId, deviceId) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[${userId}/${deviceId}] page error:`, error));
    await page.goto(app.baseUrl + '/');
    const form = page.locator('#token-sign-in');
    await form.waitFor({ state: 'visible' });
    await form.locator('input[name=token]').fill(mintToken(app.secret, userId, deviceId));
    await form.locator('button').click();
    await page.locator('#chat').waitFor({ state: 'visible' });
    return new ChatPage(page, context, `${userId}-${deviceId}`);
  }

  constructor(page, context, name) {
    this.page = page;
    this.context = context;
    this.name = name;
  }

  conversation(convId) {
    return this.page.locator(`#conversations li[data-conv="${convId}"]`);
  }

  badge(convId) {
    return this.conversation(convId).locator('.badge');
  }

  async open(convId) {
    await this.conversation(convId).click();
    await this.page.locator('#conversation').waitFor({ state: 'visible' });
  }

  /** The seqs shown in the open conversation, in the order shown. */
  shownSeqs() {
    return this.page.locator('#messages li[data-seq]').evaluateAll((items) => items.map((item) => Number(item.dataset.seq)));
  }

  async send(text) {
    const box = this.page.locator('#composer textarea');
    await box.fill(text);
    await box.press('Enter');
  }

  /** Resolves once `predicate` (run in the page) holds; a generous timeout for a loaded machine. */
  until(predicate, arg, timeout = 30_000) {
    return this.page.waitForFunction(predicate, arg, { timeout, polling: 50 });
  }

  screenshot(step) {
    return this.page.screenshot({ path: screenshotPath(`web-client-${step}-${this.name}`) });
  }

  close() {
    return this.context.close();
  }
}
