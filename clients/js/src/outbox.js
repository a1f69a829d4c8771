// Sends (R4): a clientMsgId made once per message and kept across every retry, also across a
// restart (the store keeps the outbox); a message stays pending until its committed seq is
// known, whether from the send's 200, from a push, or from a fetch after a 202 or a dropped
// connection; whichever comes first settles it, the others merge by msgId.
import { isRefusal } from './reporter.js';
import { fullJitter } from './backoff.js';
import { messagesPath } from './puller.js';

/** @typedef {import('./conversation.js').Message} Message */
/** @typedef {import('./store.js').OutboxItem} OutboxItem */

/**
 * @typedef {OutboxItem & {status: 'pending' | 'committed' | 'failed', message?: Message, error?: unknown,
 *   committed: Promise<Message>, resolve: (message: Message) => void, reject: (error: unknown) => void,
 *   inFlight?: boolean}} PendingSend
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
    /** @type {Map<string, PendingSend>} by clientMsgId */
    this.items = new Map();
    /** @type {Map<string, ReturnType<typeof setTimeout>>} */
    this.timers = new Map();
    this.stopped = false;
  }

  /** Picks up the sends a previous run left pending, and sends them again. */
  async restore() {
    for (const saved of await this.store.loadOutbox()) {
      if (!this.items.has(saved.clientMsgId)) this.track(saved);
    }
    this.retryAll();
  }

  /**
   * @param {string} convId
   * @param {string} content
   * @param {string} type
   * @returns {PendingSend}
   */
  send(convId, content, type) {
    const item = this.track({ convId, clientMsgId: newClientMsgId(), type, content, createdAt: Date.now() });
    this.store.putOutbox(stored(item)).finally(() => this.attempt(item, 0));
    return item;
  }

  /** @returns {PendingSend[]} the sends not committed yet, oldest first */
  pending() {
    return [...this.items.values()].filter((item) => item.status === 'pending');
  }

  /** Sends every pending message again (after a reconnect), same clientMsgIds. */
  retryAll() {
    for (const item of this.pending()) this.attempt(item, 0);
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
  }

  /**
   * @private
   * @param {OutboxItem} saved
   * @returns {PendingSend}
   */
  track(saved) {
    /** @type {any} */
    const item = { ...saved, status: 'pending' };
    item.committed = new Promise((resolve, reject) => { item.resolve = resolve; item.reject = reject; });
    item.committed.catch(() => {}); // a caller that does not wait for it is told through events
    this.items.set(item.clientMsgId, item);
    return item;
  }

  /**
   * @private
   * @param {any} item
   * @param {number} attempt
   */
  async attempt(item, attempt) {
    if (this.stopped || item.status !== 'pending' || item.inFlight) return;
    clearTimeout(this.timers.get(item.clientMsgId));
    item.inFlight = true;
    try {
      const answer = await this.api.call('POST', messagesPath(item.convId), {
        kind: 'send', body: { clientMsgId: item.clientMsgId, type: item.type, content: item.content },
      });
      if (answer?.message) {
        this.onCommitted(answer.message);
        return;
      }
      // 202: durably accepted, seq not known yet. It will come by push or fetch; if it has not
      // come by the time this timer fires, the same clientMsgId asks again (answered as a duplicate).
      this.later(item, attempt);
    } catch (error) {
      if (isRefusal(error)) {
        item.status = 'failed';
        item.error = error;
        this.forget(item);
        item.reject(error);
        this.onChanged(item);
      } else {
        this.later(item, attempt);
      }
    } finally {
      item.inFlight = false;
    }
  }

  /** @private */
  later(item, attempt) {
    if (this.stopped || item.status !== 'pending') return;
    this.timers.set(item.clientMsgId, setTimeout(() => this.attempt(item, attempt + 1),
      this.backoff.baseMs + fullJitter(attempt, this.backoff)));
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
