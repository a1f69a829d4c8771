// The HTTP half of API.md: JSON in and out with the bearer token, and the retry rules every call
// shares: 429 waits its Retry-After, 503 its Retry-After or a back-off, a network failure a back-off
// (only for calls that are safe to repeat), a 401 a new token from the app's getToken() (once);
// any other error is thrown as a SeqsyncError at once.
import { fullJitter } from './backoff.js';

/** An answer that is not a success: the HTTP status and API.md's error code. */
export class SeqsyncError extends Error {
  /**
   * @param {number} status 0 when the request never got an answer
   * @param {string} code e.g. `not_a_member`, `rate_limited`, `network`
   * @param {string} message
   */
  constructor(status, code, message) {
    super(`${status} ${code}: ${message}`);
    this.name = 'SeqsyncError';
    this.status = status;
    this.code = code;
  }
}

/**
 * @typedef {object} ApiOptions
 * @property {string} baseUrl e.g. `https://chat.example.com` (no trailing slash needed)
 * @property {string} token the bearer token (API.md: Identity)
 * @property {() => Promise<string>} [getToken] a new token for the same user and device, asked for when the
 *   server refuses the current one (expired, or its device signed out): the call is then sent again once
 * @property {typeof fetch} [fetch] defaults to the global fetch
 * @property {number} [maxAttempts] tries of a call that may be repeated (default 8)
 * @property {import('./backoff.js').BackoffOptions} [backoff]
 * @property {(ms: number) => Promise<void>} [sleep]
 */

/** Counters of what this client asked of the server (the reconnect benchmark reads them). */
export class RequestStats {
  constructor() {
    this.requests = 0;
    this.rateLimited = 0;
    this.overloaded = 0;
    this.failed = 0;
    /** @type {Record<string, number>} */
    this.byKind = {};
  }

  /** @param {string} kind */
  count(kind) {
    this.requests += 1;
    this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
  }
}

export class Api {
  /** @param {ApiOptions} options */
  constructor({ baseUrl, token, getToken, fetch: fetchImpl, maxAttempts = 8, backoff = {}, sleep }) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.token = token;
    this.getToken = getToken;
    /** @type {Promise<string> | null} */
    this.renewing = null;
    this.fetch = fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
    /** @type {Set<() => void>} the back-offs being waited out */
    this.sleepers = new Set();
    this.sleep = sleep ?? ((ms) => new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve(undefined);
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    }));
    this.stats = new RequestStats();
  }

  /** Ends every back-off now (the network is back): the calls waiting to try again go at once. */
  retryNow() {
    for (const wake of [...this.sleepers]) wake();
  }

  /**
   * One call, with the retries its kind allows.
   * @param {string} method
   * @param {string} path starting with `/`
   * @param {{body?: unknown, query?: Record<string, string | number | undefined>, kind?: string, repeatable?: boolean,
   *   attempts?: number, headers?: Record<string, string>}} [options] `repeatable: false` for a call that must not be
   *   sent twice after a network failure (creating a group); `attempts` caps the tries (default maxAttempts) for a
   *   caller that retries on its own
   * @returns {Promise<any>} the parsed JSON answer
   */
  async call(method, path, { body, query, kind = path, repeatable = true, attempts = this.maxAttempts, headers = {} } = {}) {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    let renewed = false;
    for (let attempt = 0; ; attempt += 1) {
      const last = attempt + 1 >= attempts;
      const token = this.token;
      this.stats.count(kind);
      let response;
      try {
        response = await this.fetch(url, {
          method,
          headers: { ...headers, authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        this.stats.failed += 1;
        if (!repeatable || last) throw new SeqsyncError(0, 'network', String(/** @type {any} */ (error)?.message ?? error));
        await this.sleep(fullJitter(attempt, this.backoff));
        continue;
      }
      if (response.ok) return response.status === 204 ? null : response.json();
      if (response.status === 401 && this.getToken && !renewed) {
        await response.body?.cancel();
        renewed = true;
        await this.renew(token);
        continue;
      }
      const retryAfterMs = Number(response.headers.get('retry-after') ?? NaN) * 1000;
      if (response.status === 429) this.stats.rateLimited += 1;
      if (response.status === 503) this.stats.overloaded += 1;
      if ((response.status === 429 || response.status === 503) && !last) {
        await response.body?.cancel();
        // Never sooner than the server asked; jittered up to twice that, so clients told the same
        // Retry-After do not all come back in the same instant.
        const wait = Number.isFinite(retryAfterMs) ? retryAfterMs + Math.random() * retryAfterMs
          : fullJitter(attempt, this.backoff);
        await this.sleep(wait);
        continue;
      }
      throw await errorOf(response);
    }
  }

  /**
   * A new token from the app's getToken() in place of `stale`: callers that find the same token
   * refused at once share one renewal, and one that finds it renewed already uses the new one.
   * @param {string} stale
   * @returns {Promise<string>}
   */
  async renew(stale) {
    if (!this.getToken || this.token !== stale) return this.token;
    this.renewing ??= this.getToken().then((token) => {
      const before = parseToken(this.token);
      const after = parseToken(token);
      if (after.userId !== before.userId || after.deviceId !== before.deviceId) {
        throw new Error(`getToken() must give a token of user ${before.userId} on device ${before.deviceId}`);
      }
      this.token = token;
      return token;
    }).finally(() => { this.renewing = null; });
    return this.renewing;
  }
}


/**
 * Whether a token expires within `marginMs` (read, not verified; a token without exp: never).
 * @param {string} token
 * @param {number} [marginMs]
 */
export function expiresSoon(token, marginMs = 5000) {
  try {
    const { exp } = claimsOf(token);
    return typeof exp === 'number' && exp * 1000 - marginMs <= Date.now();
  } catch {
    return false;
  }
}

/** @param {Response} response */
async function errorOf(response) {
  try {
    const body = await response.json();
    return new SeqsyncError(response.status, body?.error?.code ?? 'unknown', body?.error?.message ?? response.statusText);
  } catch {
    return new SeqsyncError(response.status, 'unknown', response.statusText);
  }
}

/**
 * The caller a token names (read, not verified: the server verifies it).
 * @param {string} token
 * @returns {{userId: string, deviceId: string}}
 */
export function parseToken(token) {
  try {
    const claims = claimsOf(token);
    return { userId: String(claims.sub), deviceId: String(claims.did) };
  } catch {
    throw new Error('not a seqsync token (a JWT with sub and did)');
  }
}

/**
 * A JWT's claims, read, not verified (the server verifies); throws when it is not a JWT.
 * @param {string} token
 * @returns {any}
 */
function claimsOf(token) {
  return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
}
