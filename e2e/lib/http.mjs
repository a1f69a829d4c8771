// A plain HTTP caller of the API as one user's device (no library): what a test uses to act as
// another party or to look at the server's side of things.
import { mintToken } from './tokens.mjs';

export class Caller {
  constructor(app, userId, deviceId) {
    this.app = app;
    this.userId = String(userId);
    this.deviceId = deviceId;
    this.token = mintToken(app.secret, userId, deviceId);
  }

  async call(method, path, body) {
    const response = await fetch(this.app.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }

  send(convId, content, { type = 'text', clientMsgId = `${this.deviceId}-${Math.random().toString(36).slice(2)}` } = {}) {
    return this.call('POST', `/v1/conversations/${convId}/messages`, { clientMsgId, type, content });
  }

  /** Sends `count` texts `${prefix}1..count`, `parallel` at a time (their seqs follow commit order). */
  async sendMany(convId, count, prefix, parallel = 8) {
    let next = 1;
    const worker = async () => {
      while (next <= count) {
        const i = next++;
        await this.send(convId, `${prefix}${i}`);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
  }

  activation(convId) {
    return this.call('GET', `/v1/conversations/${convId}`);
  }

  page(convId, query) {
    return this.call('GET', `/v1/conversations/${convId}/messages?${new URLSearchParams(query)}`);
  }
}

/** Polls `probe` until `accept(value)` holds (robust on a loaded machine: no tight timing). */
export async function eventually(probe, accept, { timeoutMs = 20_000, intervalMs = 100, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await probe();
    if (accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${what} not reached within ${timeoutMs} ms; last: ${JSON.stringify(last)?.slice(0, 500)}`);
}
