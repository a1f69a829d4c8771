// The server's word on when to reconnect (issue 40; docs/api.md, "Reconnect hints"): a stopping
// server, or one whose handshake lane is full, sends `{"type":"reconnect","afterMs","spreadMs"}`
// just before it closes the socket (1012 service restart, 1013 try again later). Its clients come
// back after `afterMs` plus a delay drawn uniformly from [0, spreadMs): spread at the rate the
// server named, neither all at once nor a back-off's 10 s late. A connect that fails after it (the
// server is not back yet) draws from a window twice the last, up to the back-off's cap (or the
// server's window, if larger): a back-off whose base is the server's window. Drawing from the
// server's window every time kept 2,000 clients retrying twice a second through a two-minute restart
// on a loaded machine, and they came back slower than with the back-off (docs/benchmarks.md,
// "Reconnect storm with first screens"). A hint is forgotten after HINT_TTL_MS, or once live.

/** RFC 6455's "service restart": a socket closed so without a hint comes back within DEFAULT_SPREAD_MS. */
export const CLOSE_RESTARTING = 1012;
export const DEFAULT_SPREAD_MS = 5_000;
export const HINT_TTL_MS = 300_000;

export class ComeBack {
  /**
   * @param {() => number} [random] a uniform number in [0, 1)
   * @param {number} [capMs] the largest window failed connects grow to (the back-off's cap)
   */
  constructor(random = Math.random, capMs = 10_000) {
    this.random = random;
    this.capMs = capMs;
    /** @type {{afterMs: number, spreadMs: number, until: number} | null} */
    this.hint = null;
    this.failures = 0;
  }

  /**
   * A frame the server sent: true when it was a hint (the connection keeps it, the client never sees it).
   * @param {any} frame
   */
  heard(frame) {
    if (frame?.type !== 'reconnect') return false;
    const afterMs = Math.max(0, Number(frame.afterMs) || 0);
    const spreadMs = Math.max(0, Number(frame.spreadMs) || 0);
    this.hint = { afterMs: Math.min(afterMs, HINT_TTL_MS), spreadMs: Math.min(spreadMs, HINT_TTL_MS), until: Date.now() + HINT_TTL_MS };
    this.failures = 0;
    return true;
  }

  /**
   * The delay before the next connect when a hint holds (or the socket was closed with 1012), else undefined.
   * @param {number} [code] the close code, when the server closed the socket
   * @returns {number | undefined}
   */
  delay(code) {
    if (!this.hint && code === CLOSE_RESTARTING) this.heard({ type: 'reconnect', afterMs: 0, spreadMs: DEFAULT_SPREAD_MS });
    if (!this.hint || Date.now() > this.hint.until) {
      this.hint = null;
      return undefined;
    }
    const { afterMs, spreadMs } = this.hint;
    const window = Math.min(spreadMs * 2 ** Math.min(this.failures, 30), Math.max(spreadMs, this.capMs));
    const after = this.failures === 0 ? afterMs : 0;
    this.failures += 1;
    return Math.floor(after + this.random() * window);
  }

  /** A handshake succeeded: the hint is spent. */
  reset() {
    this.hint = null;
  }
}
