// Reconnect and retry delays: exponential back-off with full jitter (a delay drawn uniformly from
// 0 to the exponential ceiling), so that many clients dropped at the same moment spread their
// reconnects over the whole window instead of arriving together again.

/**
 * @typedef {object} BackoffOptions
 * @property {number} [baseMs] the ceiling of the first retry (default 250)
 * @property {number} [capMs] the largest ceiling (default 30000)
 * @property {() => number} [random] a uniform number in [0, 1) (default Math.random)
 */

/**
 * The delay before retry number `attempt` (0 for the first): uniform in [0, min(cap, base * 2^attempt)).
 * @param {number} attempt
 * @param {BackoffOptions} [options]
 * @returns {number} milliseconds
 */
export function fullJitter(attempt, { baseMs = 250, capMs = 30_000, random = Math.random } = {}) {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * ceiling);
}

/** Counts attempts and hands out their delays; `reset()` after a success. */
export class Backoff {
  /** @param {BackoffOptions} [options] */
  constructor(options = {}) {
    this.options = options;
    this.attempt = 0;
  }

  /** @returns {number} the delay before the next attempt, in milliseconds */
  next() {
    const delay = fullJitter(this.attempt, this.options);
    this.attempt += 1;
    return delay;
  }

  reset() {
    this.attempt = 0;
  }
}
