// The server's word on when to reconnect (issue 40; docs/api.md, "Reconnect hints"): a stopping
// server, or one whose handshake lane is full, sends `{"type":"reconnect","afterMs","spreadMs"}`
// just before it closes the socket (1012 service restart, 1013 try again later). Its clients come
// back after `afterMs` plus a delay drawn uniformly from [0, spreadMs), and draw again from that
// window (not from a growing back-off) for each connect that fails until a handshake succeeds, so
// that they reach the restarted server spread at the rate it named, neither all at once nor a
// back-off's 10 s late. A hint is forgotten after HINT_TTL_MS (5 minutes: a restart on a loaded
// machine took a minute in scripts/bench-reconnect, and a one-minute hint left the clients on a
// back-off grown to 10 s by the time the app answered): then the ordinary back-off resumes.

/** RFC 6455's "service restart": a socket closed so without a hint comes back within DEFAULT_SPREAD_MS. */
export const CLOSE_RESTARTING = 1012;
export const DEFAULT_SPREAD_MS = 5_000;
export const HINT_TTL_MS = 300_000;

export class ComeBack {
  /** @param {() => number} [random] a uniform number in [0, 1) */
  constructor(random = Math.random) {
    this.random = random;
    /** @type {{afterMs: number, spreadMs: number, until: number} | null} */
    this.hint = null;
    this.first = true;
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
    this.first = true;
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
    const after = this.first ? this.hint.afterMs : 0;
    this.first = false;
    return Math.floor(after + this.random() * this.hint.spreadMs);
  }

  /** A handshake succeeded: the hint is spent. */
  reset() {
    this.hint = null;
  }
}
