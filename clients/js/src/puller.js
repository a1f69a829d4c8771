// Fetching what a conversation's live tail misses: a catch-up after the handshake, a range fetch
// the moment a seq jump shows a gap (R9), the first screen of a conversation opened without one
// (R16), and the realignment of a cursor that is ahead of the server (R10). One loop per
// conversation at a time; a new need while it runs is picked up by the same loop.

/** @typedef {import('./conversation.js').Conversation} Conversation */
/** @typedef {import('./conversation.js').Message} Message */
/** @typedef {'catchup' | 'fill' | 'first-screen'} PullSource */

export const FIRST_SCREEN = 20;
export const PAGE = 50;

export class Puller {
  /**
   * @param {import('./api.js').Api} api
   * @param {object} hooks
   * @param {(conv: Conversation, messages: Message[], source: PullSource | 'history') => void} hooks.ingest
   * @param {(conv: Conversation, error: unknown) => void} hooks.failed a pull that gave up (the next handshake retries it)
   * @param {(conv: Conversation) => void} hooks.realigned the cursor moved back to the server's latest (R10)
   */
  constructor(api, { ingest, failed, realigned }) {
    this.api = api;
    this.ingest = ingest;
    this.failed = failed;
    this.realigned = realigned;
    /** @type {Map<string, Promise<void>>} */
    this.running = new Map();
    /** @type {Set<() => void>} */
    this.idleWaiters = new Set();
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
      .catch((error) => this.failed(conv, error))
      .finally(() => {
        this.running.delete(conv.convId);
        if (this.running.size === 0) for (const resolve of this.idleWaiters) resolve();
      });
    this.running.set(conv.convId, loop);
    return loop;
  }

  /** Resolves once no conversation is being pulled. */
  idle() {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((/** @type {(value?: void) => void} */ resolve) => {
      const done = () => { this.idleWaiters.delete(done); resolve(); };
      this.idleWaiters.add(done);
    });
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
    this.ingest(conv, page.messages, 'first-screen');
  }

  /**
   * Older messages, a page of 50 before the lowest held (R16).
   * @param {Conversation} conv
   * @returns {Promise<number>} how many came
   */
  async older(conv) {
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
    this.ingest(conv, page.messages, 'history');
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
    this.ingest(conv, page.messages, source);
    return realigned;
  }
}

/** @param {string} convId */
export function messagesPath(convId) {
  return `/v1/conversations/${encodeURIComponent(convId)}/messages`;
}
