// Sends (R4): a clientMsgId made once per message and kept across every retry, also across a
// restart (the store keeps the outbox); a message stays pending until its committed seq is
// known, whether from the send's 200, from a push, or from a fetch after a 202 or a dropped
// connection; whichever comes first settles it, the others merge by msgId. A conversation's sends
// go out one at a time, in the order they were made (SendQueue); conversations go in parallel.
import { isRefusal } from './reporter.js';
import { fullJitter } from './backoff.js';
import { messagesPath } from './puller.js';
import { SendQueue } from './send-queue.js';

/** @typedef {import('./conversation.js').Message} Message */
/** @typedef {import('./store.js').OutboxItem} OutboxItem */

/**
 * @typedef {OutboxItem & {status: 'pending' | 'committed' | 'failed', message?: Message, error?: unknown,
 *   committed: Promise<Message>, resolve: (message: Message) => void, reject: (error: unknown) => void,
 *   saved: Promise<void>, attempts: number, accepted?: boolean, inFlight?: boolean}} PendingSend
 *   `saved`: in the store; `accepted`: answered 202 (in the commands topic), its seq not known yet
 */

/** A clientMsgId: 128 random bits (crypto.getRandomValues also works where randomUUID does not: plain http). */
export function newClientMsgId() {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return 'c-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export class Outbox {
  /**
   * @param {import('./api.js').Api} api
   * @param {import('./store.js').SeqsyncStore} store
   * @param {object} hooks
   * @param {(message: Message) => void} hooks.committed the send's own answer carried its message
   * @param {(item: PendingSend) => void} hooks.changed a pending send failed for good
   * @param {import('./backoff.js').BackoffOptions} [backoff]
   */
  constructor(api, store, { committed, changed }, backoff = {}) {
    this.api = api;
    this.store = store;
    this.onCommitted = committed;
    this.onChanged = changed;
    this.backoff = { baseMs: 1000, capMs: 15_000, ...backoff };
    /** @type {Map<string, PendingSend>} by clientMsgId: queued, in flight, or accepted and waiting for its seq */
    this.items = new Map();
    /** @type {Map<string, SendQueue>} by convId */
    this.queues = new Map();
    /** @type {Map<string, ReturnType<typeof setTimeout>>} when an accepted send asks for its seq again */
    this.timers = new Map();
    this.stopped = false;
    this.lastCreatedAt = 0;
    /** @type {() => void} */
    this.markLoaded = () => {};
    /** @type {Promise<void>} */
    this.loaded = new Promise((resolve) => { this.markLoaded = () => resolve(undefined); });
  }

  /** Picks up the sends a previous run left pending; they go first, in the order they were made. */
  async restore() {
    try {
      const saved = (await this.store.loadOutbox()).filter((item) => !this.items.has(item.clientMsgId))
        .sort((a, b) => a.createdAt - b.createdAt);
      /** @type {Map<string, PendingSend[]>} */
      const byConv = new Map();
      for (const item of saved) {
        this.lastCreatedAt = Math.max(this.lastCreatedAt, item.createdAt);
        if (!byConv.has(item.convId)) byConv.set(item.convId, []);
        byConv.get(item.convId)?.push(this.track(item, Promise.resolve()));
      }
      for (const [convId, items] of byConv) this.queue(convId).restore(items);
    } finally {
      this.markLoaded(); // an unreadable store loses the earlier run's sends, not this one's
    }
  }

  /**
   * @param {string} convId
   * @param {string} content
   * @param {string} type
   * @param {{attachment?: import('./attachments.js').Attachment, replyTo?: number, mentions?: string[]}} [extras]
   *   an uploaded object; message actions: a reply, mentions
   * @returns {PendingSend}
   */
  send(convId, content, type, { attachment, replyTo, mentions } = {}) {
    // Strictly increasing, so the order survives a restart even for a burst within one millisecond.
    this.lastCreatedAt = Math.max(Date.now(), this.lastCreatedAt + 1);
    const made = { convId, clientMsgId: newClientMsgId(), type, content, createdAt: this.lastCreatedAt,
      ...(attachment ? { attachment } : {}), ...(replyTo ? { replyTo } : {}), ...(mentions?.length ? { mentions } : {}) };
    const item = this.track(made, this.store.putOutbox(made).catch(() => {})); // a store that fails still sends
    this.queue(convId).push(item);
    return item;
  }

  /** @returns {PendingSend[]} the sends not committed yet, oldest first */
  pending() {
    return [...this.items.values()].filter((item) => item.status === 'pending').sort((a, b) => a.createdAt - b.createdAt);
  }

  /** After a reconnect: every queue's head is tried now, and every accepted send asks for its seq. */
  retryAll() {
    for (const queue of this.queues.values()) queue.kick();
    for (const item of this.pending()) if (item.accepted) this.ask(item, 0);
  }

  /**
   * A message arrived (push, fetch or answer): if it is one of ours, it settles its send.
   * @param {Message} message
   * @param {string} userId who we are
   */
  settle(message, userId) {
    const item = this.items.get(message.clientMsgId);
    if (!item || item.status !== 'pending' || item.convId !== message.convId || message.senderId !== userId) return false;
    item.status = 'committed';
    item.message = message;
    this.forget(item);
    item.resolve(message);
    return true;
  }

  stop() {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const queue of this.queues.values()) queue.stop();
  }

  /**
   * One try of a send (SendQueue's, or an accepted send asking for its seq). With `followed` (more
   * sends wait behind it) the server is asked to answer once the command is in the topic (202)
   * rather than once it is stored: the next may go then. Their seqs come by push, or by the fetch
   * that fills the gap below the last one's, which is answered with its seq.
   * @param {PendingSend} item
   * @param {boolean} [followed]
   * @returns {Promise<import('./send-queue.js').SendOutcome>}
   */
  async post(item, followed = false) {
    if (this.stopped) return 'unknown';
    item.inFlight = true;
    let answer;
    try {
      answer = await this.api.call('POST', messagesPath(item.convId), {
        kind: 'send', body: { clientMsgId: item.clientMsgId, type: item.type, content: item.content, attachment: item.attachment,
          replyTo: item.replyTo, mentions: item.mentions },
        headers: followed ? { prefer: 'respond-async' } : {},
      });
    } catch (error) {
      if (!isRefusal(error)) return 'unknown';
      if (item.status === 'pending') this.fail(item, error);
      return 'refused';
    } finally {
      item.inFlight = false;
    }
    if (answer?.message) {
      this.onCommitted(answer.message);
    } else if (item.status === 'pending') {
      // 202: in the topic, seq not known yet. It will come by push or fetch; if it has not come
      // by the time this timer fires, the same clientMsgId asks again (answered as a duplicate).
      item.accepted = true;
      this.later(item);
    }
    return 'accepted';
  }

  /** @private */
  queue(convId) {
    let queue = this.queues.get(convId);
    if (!queue) {
      queue = new SendQueue({ loaded: this.loaded, post: (item, followed) => this.post(item, followed), stopped: () => this.stopped },
        this.backoff);
      this.queues.set(convId, queue);
    }
    return queue;
  }

  /**
   * @private
   * @param {OutboxItem} saved
   * @param {Promise<void>} stored
   * @returns {PendingSend}
   */
  track(saved, stored) {
    /** @type {any} */
    const item = { ...saved, status: 'pending', saved: stored, attempts: 0 };
    item.committed = new Promise((resolve, reject) => { item.resolve = resolve; item.reject = reject; });
    item.committed.catch(() => {}); // a caller that does not wait for it is told through events
    this.items.set(item.clientMsgId, item);
    return item;
  }

  /** @private @param {PendingSend} item @param {number} [attempt] */
  async ask(item, attempt) {
    if (this.stopped || item.status !== 'pending' || item.inFlight) return;
    clearTimeout(this.timers.get(item.clientMsgId));
    // While its conversation still sends, its seq comes with the fill below the last send's: asking costs a request.
    if (this.queue(item.convId).waiting.length > 0) return this.later(item);
    item.attempts = attempt ?? item.attempts + 1;
    if ((await this.post(item)) === 'unknown') this.later(item);
  }

  /** @private @param {PendingSend} item */
  later(item) {
    if (this.stopped || item.status !== 'pending') return;
    this.timers.set(item.clientMsgId, setTimeout(() => this.ask(item), this.backoff.baseMs + fullJitter(item.attempts, this.backoff)));
  }

  /** @private @param {PendingSend} item @param {unknown} error */
  fail(item, error) {
    item.status = 'failed';
    item.error = error;
    this.forget(item);
    item.reject(error);
    this.onChanged(item);
  }

  /** @private */
  forget(item) {
    clearTimeout(this.timers.get(item.clientMsgId));
    this.timers.delete(item.clientMsgId);
    this.items.delete(item.clientMsgId);
    this.store.deleteOutbox(item.clientMsgId);
  }
}

/** @param {PendingSend} item the part of a pending send the store keeps */
function stored({ convId, clientMsgId, type, content, createdAt }) {
  return { convId, clientMsgId, type, content, createdAt };
}
