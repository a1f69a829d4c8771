// What goes back to the server about rendering: acks (R12: the highest contiguous rendered seq per
// conversation, batched, forward only, written to the local store before they are sent), render
// telemetry (R24) and render failures (R17). Batched on a short timer; what could not be sent is
// sent again with the next batch.

/** @typedef {import('./conversation.js').Conversation} Conversation */
/** @typedef {{msgId: string, convId: string, seq: number, sendTime: number, renderTime: number}} Rendered */
/** @typedef {{msgId: string, convId: string, seq: number, reason: string}} Failure */

const BATCH = 100; // API.md: at most 100 items a request
const MAX_QUEUED_TELEMETRY = 5_000; // beyond it the oldest reports are dropped: telemetry must never grow without bound

export class Reporter {
  /**
   * @param {import('./api.js').Api} api
   * @param {import('./store.js').SeqsyncStore} store
   * @param {{intervalMs?: number, telemetry?: boolean, onError?: (error: unknown) => void}} [options]
   */
  constructor(api, store, { intervalMs = 200, telemetry = true, onError = () => {} } = {}) {
    this.api = api;
    this.store = store;
    this.intervalMs = intervalMs;
    this.telemetry = telemetry;
    this.onError = onError;
    /** @type {Map<string, Conversation>} conversations whose ack may have moved */
    this.dirty = new Map();
    /** @type {Map<string, number>} the ack last accepted (202) per conversation */
    this.sent = new Map();
    /** @type {Rendered[]} */
    this.rendered = [];
    /** @type {Failure[]} */
    this.failures = [];
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** @type {Promise<void> | null} */
    this.flushing = null;
    this.stopped = false;
    this.failuresInARow = 0;
  }

  /** @param {Conversation} conv its ack window moved */
  ackMoved(conv) {
    this.dirty.set(conv.convId, conv);
    this.schedule();
  }

  /**
   * The server's cursor for this device is behind what we acked (our ack was lost, R14): send it again now.
   * @param {Conversation} conv
   */
  resend(conv) {
    this.sent.delete(conv.convId);
    this.dirty.set(conv.convId, conv);
    return this.flush();
  }

  /** @param {Rendered} item */
  reportRendered(item) {
    if (!this.telemetry) return;
    this.rendered.push(item);
    if (this.rendered.length > MAX_QUEUED_TELEMETRY) this.rendered.shift();
    this.schedule();
  }

  /** @param {Failure} item */
  reportFailure(item) {
    this.failures.push(item);
    if (this.failures.length > MAX_QUEUED_TELEMETRY) this.failures.shift();
    this.schedule();
  }

  /** @param {number} [delayMs] */
  schedule(delayMs = this.intervalMs) {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, delayMs);
  }

  /** Sends everything pending now; resolves when done (failures stay queued for the next batch). */
  async flush() {
    while (this.flushing) await this.flushing;
    this.flushing = this.sendAll().finally(() => { this.flushing = null; });
    return this.flushing;
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** @private */
  async sendAll() {
    const moved = [...this.dirty.values()].filter((conv) => conv.base > 0 && conv.base > (this.sent.get(conv.convId) ?? -1));
    this.dirty.clear();
    const acks = moved.map((conv) => ({ conv, ack: { convId: conv.convId, seq: conv.base } }));
    // The local store first: a crash after this still resumes from what was rendered.
    await Promise.all(acks.map(({ ack }) => this.store.saveCursor(ack.convId, ack.seq)));
    let retry = false;
    for (let i = 0; i < acks.length; i += BATCH) {
      const batch = acks.slice(i, i + BATCH);
      try {
        await this.api.call('POST', '/v1/acks', { kind: 'ack', body: { acks: batch.map(({ ack }) => ack) }, attempts: 1 });
        for (const { conv, ack } of batch) {
          this.sent.set(ack.convId, Math.max(ack.seq, this.sent.get(ack.convId) ?? 0));
          if (ack.seq > conv.serverCursor) conv.serverCursor = ack.seq;
        }
      } catch (error) {
        this.onError(error);
        if (isRefusal(error)) continue; // e.g. no longer a member: sending it again cannot help
        retry = true;
        // Acks are idempotent and forward only: the conversations stay due for the next batch.
        for (const { conv } of batch) this.dirty.set(conv.convId, conv);
      }
    }
    retry = !(await this.post('/v1/telemetry/rendered', this.rendered, 'rendered')) || retry;
    retry = !(await this.post('/v1/telemetry/failures', this.failures, 'failures')) || retry;
    // What did not get through goes with a later batch, backing off while the server is away.
    this.failuresInARow = retry ? this.failuresInARow + 1 : 0;
    if (retry) this.schedule(Math.min(10_000, this.intervalMs * 2 ** this.failuresInARow));
  }

  /**
   * @private
   * @param {string} path
   * @param {Array<Rendered | Failure>} queue drained on success
   * @param {string} kind
   */
  async post(path, queue, kind) {
    while (queue.length > 0) {
      const batch = queue.slice(0, BATCH);
      try {
        await this.api.call('POST', path, { kind, body: { items: batch }, attempts: 1 });
        queue.splice(0, batch.length);
      } catch (error) {
        this.onError(error);
        // A report the server refuses (4xx) is dropped; one that did not get through is kept.
        if (isRefusal(error)) queue.splice(0, batch.length);
        else return false;
      }
    }
    return true;
  }
}

/** @param {any} error an answer that a retry cannot change (4xx other than 408 and 429) */
export function isRefusal(error) {
  return error?.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}
