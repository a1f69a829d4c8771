// Fetching what a conversation's live tail misses: a catch-up after the handshake, a range fetch
// the moment a seq jump shows a gap (R9), the first screen of a conversation opened without one
// (R16), and the realignment of a cursor that is ahead of the server (R10). One loop per
// conversation at a time; a new need while it runs is picked up by the same loop. A loop that
// failed on something that may pass (the network, a 5xx, a 429 or 503 past the API's own retries)
// is tried again after a back-off: a gap must not wait for the next push or handshake.
import { Backoff } from './backoff.js';
import { holeBefore, narrowHole } from './screens.js';

/** @typedef {import('./conversation.js').Conversation} Conversation */
/** @typedef {import('./conversation.js').Message} Message */
/** @typedef {'catchup' | 'fill' | 'first-screen'} PullSource */

export const FIRST_SCREEN = 20;
export const PAGE = 50;

export class Puller {
  /**
   * @param {import('./api.js').Api} api
   * @param {object} hooks
   * @param {(conv: Conversation, messages: Message[], source: PullSource | 'history', watermark?: number) => void} hooks.ingest
   *   `watermark`: the page's latestSeq, as of which its messages' state is
   * @param {(conv: Conversation, error: unknown) => void} hooks.failed a pull that failed (tried again after a back-off when the failure may pass)
   * @param {(conv: Conversation) => void} hooks.realigned the cursor moved back to the server's latest (R10)
   * @param {import('./backoff.js').BackoffOptions} [retry] the back-off of a failed pull's retries
   */
  constructor(api, { ingest, failed, realigned }, retry = { baseMs: 500, capMs: 10_000 }) {
    this.api = api;
    this.ingest = ingest;
    this.failed = failed;
    this.realigned = realigned;
    this.retry = retry;
    /** @type {Map<string, Promise<void>>} */
    this.running = new Map();
    /** @type {Set<() => void>} */
    this.idleWaiters = new Set();
    /** @type {Map<string, Backoff>} conversations whose last pull failed */
    this.backoffs = new Map();
    /** @type {Map<string, ReturnType<typeof setTimeout>>} */
    this.retries = new Map();
    this.stopped = false;
  }

  /** Whether a conversation is being pulled or waits to be pulled again. */
  get busy() {
    return this.running.size > 0 || this.retries.size > 0;
  }

  /** No more retries (the client closed). */
  stop() {
    this.stopped = true;
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
    if (!this.busy) this.wakeIdleWaiters();
  }

  /** @private */
  wakeIdleWaiters() {
    for (const resolve of this.idleWaiters) resolve();
  }

  /**
   * Makes `conv`'s live tail gap-free up to its latest known seq, now.
   * @param {Conversation} conv
   * @param {PullSource} source why: a handshake's catch-up, or a gap seen in something received
   */
  pull(conv, source) {
    const running = this.running.get(conv.convId);
    if (running) {
      conv.pullAgain = conv.pullAgain ?? source;
      return running;
    }
    const loop = this.loop(conv, source)
      .then(() => { this.backoffs.delete(conv.convId); })
      .catch((error) => {
        this.failed(conv, error);
        if (mayPass(error)) this.retryLater(conv, source);
      })
      .finally(() => {
        this.running.delete(conv.convId);
        if (!this.busy) this.wakeIdleWaiters();
      });
    this.running.set(conv.convId, loop);
    return loop;
  }

  /** Resolves once no conversation is being pulled or waits for a retry. */
  idle() {
    if (!this.busy) return Promise.resolve();
    return new Promise((/** @type {(value?: void) => void} */ resolve) => {
      const done = () => { this.idleWaiters.delete(done); resolve(); };
      this.idleWaiters.add(done);
    });
  }

  /**
   * @private
   * @param {Conversation} conv
   * @param {PullSource} source
   */
  retryLater(conv, source) {
    if (this.stopped || this.retries.has(conv.convId)) return;
    let backoff = this.backoffs.get(conv.convId);
    if (!backoff) this.backoffs.set(conv.convId, (backoff = new Backoff(this.retry)));
    this.retries.set(conv.convId, setTimeout(() => {
      this.retries.delete(conv.convId);
      if (!this.stopped) this.pull(conv, source);
    }, backoff.next()));
  }

  /**
   * @param {Conversation} conv
   * @param {PullSource} source
   */
  async loop(conv, source) {
    for (let first = true; ; first = false) {
      if (!conv.anchored) {
        await this.firstScreen(conv);
        continue;
      }
      if (conv.ahead()) {
        // Asked from our cursor, the server answers the latest 20 and where to realign (R10).
        const page = await this.api.call('GET', messagesPath(conv.convId), { kind: 'fetch', query: { after: conv.base } });
        if (!this.take(conv, page, source)) conv.latestSeq = Math.max(page.latestSeq, conv.base);
        continue;
      }
      const gap = conv.missing();
      if (!gap) {
        if (conv.pullAgain === undefined) return;
        source = conv.pullAgain;
        conv.pullAgain = undefined;
        continue;
      }
      const tailBefore = conv.tailEnd;
      const page = await this.api.call('GET', messagesPath(conv.convId), {
        kind: 'fetch',
        // The first page from the device's own server cursor needs no `after`: the server then
        // serves it in its first-screen lane (R23); later pages, and gaps, are ranges (R9).
        query: first && gap.after === conv.serverCursor && source === 'catchup'
          ? {} : { after: gap.after, until: gap.until, limit: PAGE },
      });
      const realigned = this.take(conv, page, source);
      // No progress (never expected: seqs are gap-free): stop rather than loop on a seq the server does not serve.
      if (conv.tailEnd === tailBefore && !realigned) return;
    }
  }

  /**
   * The first screen (R16): the latest 20; what lies below is history for `loadOlder`.
   * @param {Conversation} conv
   */
  async firstScreen(conv) {
    const page = await this.api.call('GET', messagesPath(conv.convId), { kind: 'first-screen', query: { last: FIRST_SCREEN } });
    const first = page.messages[0]?.seq ?? page.latestSeq + 1;
    conv.startTailAfter(first - 1);
    conv.hasOlder = page.hasMore;
    conv.sawLatest(page.latestSeq);
    this.ingest(conv, page.messages, 'first-screen', page.latestSeq);
  }

  /**
   * Older messages, a page of 50 before the lowest held (R16).
   * @param {Conversation} conv
   * @returns {Promise<number>} how many came
   */
  async older(conv) {
    const holeTop = holeBefore(conv);
    if (holeTop !== null) {
      // Unseen messages below a limited first screen come first, newest first.
      const page = await this.api.call('GET', messagesPath(conv.convId), { kind: 'history', query: { before: holeTop, limit: PAGE } });
      narrowHole(conv, page);
      this.ingest(conv, page.messages, 'history');
      return page.messages.length;
    }
    const oldest = conv.oldestSeq;
    if (oldest === null) {
      await this.firstScreen(conv);
      return conv.messages.size;
    }
    if (oldest <= 1) {
      conv.hasOlder = false;
      return 0;
    }
    const page = await this.api.call('GET', messagesPath(conv.convId), { kind: 'history', query: { before: oldest, limit: PAGE } });
    conv.hasOlder = page.hasMore;
    this.ingest(conv, page.messages, 'history', page.latestSeq);
    return page.messages.length;
  }

  /**
   * @param {Conversation} conv
   * @param {any} page
   * @param {PullSource} source
   * @returns {boolean} whether the page realigned the cursor
   */
  take(conv, page, source) {
    const realigned = page.realign !== undefined && page.realign !== null;
    if (realigned) {
      // Our cursor was ahead of the server (R10): the page is the latest 20; continue from there.
      conv.latestSeq = page.realign;
      conv.realign(page.realign);
      this.realigned(conv);
    } else if (page.archiveHint && page.messages.length > 0 && page.messages[0].seq > conv.tailEnd + 1) {
      // Below the hot tier (R22): the tail starts where the hot table does.
      conv.startTailAfter(page.messages[0].seq - 1);
    }
    conv.sawLatest(page.latestSeq);
    this.ingest(conv, page.messages, source, page.latestSeq);
    return realigned;
  }
}

/** @param {string} convId */
export function messagesPath(convId) {
  return `/v1/conversations/${encodeURIComponent(convId)}/messages`;
}

/**
 * Whether a failed call may succeed if tried again: no answer, a 5xx, or a 429 the API's retries did
 * not outlast; not a 4xx about the request itself (e.g. 403: no longer a member).
 * @param {unknown} error
 */
function mayPass(error) {
  const status = /** @type {any} */ (error)?.status;
  return typeof status !== 'number' || status === 0 || status === 429 || status >= 500;
}
