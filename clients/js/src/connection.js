// The push socket and its state machine:
//
//   idle ──connect()──▶ connecting ──open──▶ syncing ──handshake done──▶ live
//                          ▲                    │                          │
//                          │      closed, error, no pong, handshake failed │
//                          └──── reconnecting (back-off, full jitter) ◀────┘
//   any ──close()──▶ closed
//
// It knows nothing of the protocol beyond frames: the client runs the handshake on `open` and
// calls `live()` when it is done. A socket the server closes with 4401 (its token expired, or its
// device signed out) reconnects at once with the URL asked for anew after `onTokenEnded`, which
// gets a new token; if that fails, it backs off as for any lost socket. A server that says when to
// come back (a `reconnect` frame before it closes, or the close code 1012) is followed, with jitter
// (come-back.js).
import { Backoff } from './backoff.js';
import { ComeBack } from './come-back.js';

/** @typedef {'idle' | 'connecting' | 'syncing' | 'live' | 'reconnecting' | 'closed'} ConnectionState */

/**
 * @typedef {object} ConnectionOptions
 * @property {string | (() => string | Promise<string>)} url the stream's ws:// or wss:// URL with its
 *   access_token, or a function giving it for each connect (the token may have been renewed)
 * @property {() => Promise<unknown>} [onTokenEnded] the server closed the socket with 4401: get a new token
 * @property {any} WebSocket a WebSocket constructor (the browser's, or the `ws` package's in Node)
 * @property {import('./backoff.js').BackoffOptions} [backoff]
 * @property {number} [pingIntervalMs] a ping when the socket was quiet this long (default 20000)
 * @property {number} [pongTimeoutMs] no frame this long after a ping: the socket is dead (default 10000)
 * @property {() => void} onOpen
 * @property {(frame: any) => void} onFrame
 * @property {(state: ConnectionState, detail: {attempt: number, delayMs?: number}) => void} onState
 */

/** The server's close code for a socket replaced by a newer one of the same device (docs/api.md, "Limits"). */
export const CLOSE_REPLACED = 4409;
/** The server's close code for a socket refused: the user holds as many sockets as allowed. */
export const CLOSE_TOO_MANY_SOCKETS = 4429;

export class Connection {
  /** @param {ConnectionOptions} options */
  constructor({ url, WebSocket, backoff = {}, pingIntervalMs = 20_000, pongTimeoutMs = 10_000, onOpen, onFrame, onState,
    onTokenEnded }) {
    if (!WebSocket) throw new Error('no WebSocket: pass one (in Node 20: the ws package\'s WebSocket)');
    this.url = typeof url === 'function' ? url : () => url;
    this.onTokenEnded = onTokenEnded;
    this.WebSocket = WebSocket;
    this.backoff = new Backoff({ baseMs: 500, capMs: 10_000, ...backoff });
    this.pingIntervalMs = pingIntervalMs;
    this.pongTimeoutMs = pongTimeoutMs;
    this.onOpen = onOpen;
    this.onFrame = onFrame;
    this.onState = onState;
    /** @type {ConnectionState} */
    this.state = 'idle';
    /** @type {any} */
    this.socket = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.lastFrameAt = 0;
    this.attempts = 0;
    this.comeBack = new ComeBack(this.backoff.options.random, this.backoff.options.capMs);
  }

  start() {
    if (this.state !== 'idle' && this.state !== 'reconnecting') return;
    this.open();
  }

  /** The handshake is done: the back-off starts over. */
  live() {
    if (this.state !== 'syncing') return;
    this.backoff.reset();
    this.comeBack.reset();
    this.attempts = 0;
    this.setState('live');
  }

  /** @param {object} frame */
  send(frame) {
    if (this.socket && this.socket.readyState === 1) this.socket.send(JSON.stringify(frame));
  }

  /** Drops the socket as a network failure would (then reconnects): for tests and for "reconnect now". */
  drop() {
    if (this.socket) this.lost(this.socket);
  }

  close() {
    this.setState('closed');
    this.clearTimer();
    const socket = this.socket;
    this.socket = null;
    if (socket) closeQuietly(socket);
  }

  /** @private */
  open() {
    this.clearTimer();
    this.setState('connecting');
    let url;
    try {
      url = this.url();
    } catch {
      this.retry();
      return;
    }
    if (typeof url === 'string') {
      this.connect(url);
      return;
    }
    url.then((resolved) => { if (this.state === 'connecting') this.connect(resolved); },
      () => { if (this.state === 'connecting') this.retry(); });
  }

  /** @private @param {string} url */
  connect(url) {
    let socket;
    try {
      socket = new this.WebSocket(url);
    } catch {
      this.retry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.lastFrameAt = Date.now();
      this.setState('syncing');
      this.keepAlive(socket);
      this.onOpen();
    };
    socket.onmessage = (/** @type {{data: any}} */ event) => {
      if (this.socket !== socket) return;
      this.lastFrameAt = Date.now();
      let frame;
      try {
        frame = JSON.parse(typeof event.data === 'string' ? event.data : String(event.data));
      } catch {
        return; // not ours to fix: the server only sends JSON
      }
      if (this.comeBack.heard(frame)) return; // when to come back: the close follows
      this.onFrame(frame);
    };
    socket.onclose = (/** @type {{code?: number}} */ event) => {
      if (event?.code === TOKEN_ENDED && this.onTokenEnded) this.renewed(socket);
      else this.lost(socket, event?.code);
    };
    socket.onerror = () => this.lost(socket);
  }

  /** @private @param {any} socket closed by the server for its token: a new token, then a new socket at once */
  renewed(socket) {
    if (this.socket !== socket || this.state === 'closed') return;
    this.socket = null;
    closeQuietly(socket);
    this.setState('reconnecting', 0);
    /** @type {() => Promise<unknown>} */ (this.onTokenEnded)().then(
      () => { if (this.state === 'reconnecting') this.open(); },
      () => { if (this.state === 'reconnecting') this.retry(); });
  }

  /** Called by the client when a handshake failed: the socket is no good, start over. */
  restart() {
    if (this.socket) this.lost(this.socket);
  }

  /** @private @param {any} socket @param {number} [code] the close code, when the server closed it */
  lost(socket, code) {
    if (this.socket !== socket || this.state === 'closed') return;
    this.socket = null;
    closeQuietly(socket);
    // Replaced by a newer socket of this device (another tab with the same token, say): reconnecting
    // at once would replace that one in turn, so wait the longest delay. Refused past the user's
    // sockets (4429): the back-off, which grows, since a refused socket never got live.
    this.retry(code === CLOSE_REPLACED ? this.backoff.options.capMs : this.comeBack.delay(code));
  }

  /** @private @param {number} [delayMs] */
  retry(delayMs = this.comeBack.delay() ?? this.backoff.next()) {
    this.clearTimer();
    this.attempts += 1;
    this.setState('reconnecting', delayMs);
    this.timer = setTimeout(() => this.open(), delayMs);
  }

  /** @private @param {any} socket */
  keepAlive(socket) {
    this.clearTimer();
    const tick = () => {
      if (this.socket !== socket) return;
      const quiet = Date.now() - this.lastFrameAt;
      if (quiet >= this.pingIntervalMs + this.pongTimeoutMs) {
        this.lost(socket); // the ping went unanswered: a dead connection the OS has not noticed
        return;
      }
      if (quiet >= this.pingIntervalMs) this.send({ type: 'ping' });
      this.timer = setTimeout(tick, Math.min(this.pingIntervalMs, this.pongTimeoutMs) / 2);
    };
    this.timer = setTimeout(tick, this.pingIntervalMs / 2);
  }

  /** @private */
  clearTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * @private
   * @param {ConnectionState} state
   * @param {number} [delayMs]
   */
  setState(state, delayMs) {
    this.state = state;
    this.onState(state, { attempt: this.attempts, delayMs });
  }
}

// The server's close code for a socket whose token expired or whose device signed out.
const TOKEN_ENDED = 4401;

/** @param {any} socket */
function closeQuietly(socket) {
  socket.onopen = socket.onmessage = socket.onclose = null;
  socket.onerror = () => {};
  try {
    if (typeof socket.terminate === 'function') socket.terminate(); // ws in Node: no closing handshake on a dead link
    else socket.close();
  } catch {
    // already closed
  }
}
