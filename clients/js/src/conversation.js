// One conversation as this device sees it: the messages it holds by seq, where its ack window
// stands, what is missing. Pure state, no I/O: the client asks it what to fetch and tells it what
// arrived, was rendered or was skipped, so the protocol's rules are testable without a server.

/** The content the server gives a recalled message (R6). */
export const RECALLED_PLACEHOLDER = '[recalled]';

/**
 * @typedef {object} Message API.md's message
 * @property {string} msgId
 * @property {string} convId
 * @property {number} seq
 * @property {string} senderId
 * @property {string} senderDevice
 * @property {string} clientMsgId
 * @property {string} type `text`, `image`, `file`, `system`, `recall`, ...
 * @property {string} content
 * @property {number} createTime
 * @property {boolean} recalled
 * @property {import('./attachments.js').Attachment} [attachment] an image's or file's object (fetch it with attachmentUrl)
 * @property {boolean} [edited] message actions: the sender edited it; content is the edited text
 * @property {number} [editedAt] epoch ms of the latest edit
 * @property {{seq: number, senderId?: string, type?: string, quote?: string}} [replyTo] the message it replies to
 * @property {string[]} [mentions] the users it mentions
 * @property {Array<{emoji: string, count: number, me: boolean}>} [reactions] per emoji: how many, whether I reacted
 * @property {number} [stateSeq] through which seq of the conversation its edits and reactions are known (the library's)
 */

/**
 * How a message reached this client: pushed live, caught up after a handshake, a gap filled, a
 * first screen, an older page, the answer to our own send or recall (R15: push and catch-up told apart), or
 * read back from the device's local copy (`store`).
 * @typedef {'push' | 'catchup' | 'fill' | 'first-screen' | 'history' | 'sent' | 'store'} MessageSource
 */

export class Conversation {
  /**
   * @param {string} convId
   * @param {number} cursor the acked seq this device persisted (0: none)
   */
  constructor(convId, cursor = 0) {
    this.convId = convId;
    /** @type {Map<number, Message>} */
    this.messages = new Map();
    /** Every seq up to it is rendered or skipped (or lies below a first screen): the ack to send. */
    this.base = cursor;
    /** The highest ack the server took (202) or reported as this device's cursor. */
    this.serverCursor = 0;
    /** Every seq in (base, tailEnd] is held. */
    this.tailEnd = cursor;
    /** The highest committed seq known, from a handshake, a page or a push. */
    this.latestSeq = 0;
    /** Whether a catch-up, a first screen or the cursor has fixed where the live tail starts. */
    this.anchored = cursor > 0;
    /** @type {Set<number>} seqs above base that were rendered or skipped */
    this.done = new Set();
    /** @type {{after: number, before: number} | null} unseen seqs in (after, before) left below a limited first screen (screens.js) */
    this.hole = null;
    /** @type {boolean | undefined} whether older messages than the lowest held exist (undefined: not known yet) */
    this.hasOlder = undefined;
    this.readSeq = 0;
    this.unread = 0;
    /** Message actions: how often the user is mentioned above their read position. */
    this.mentions = 0;
    /** The user's list settings (from the list): no push notifications; at the top of the list. */
    this.muted = false;
    this.pinned = false;
    /** @type {string | null} */
    this.draft = null;
    /** @type {Map<string, number>} other members' read positions (receipts, R19) */
    this.receipts = new Map();
    /** @type {Map<string, number>} other members' delivered positions: the highest seq a device of theirs acked */
    this.deliveredTo = new Map();
    /** @type {string[] | undefined} every member, as the last receipts answer listed them */
    this.receiptMembers = undefined;
    /** @type {string | undefined} */
    this.kind = convId.startsWith('g:') ? 'group' : 'direct';
    /** @type {string | undefined} */
    this.name = undefined;
    /** @type {string[] | undefined} */
    this.members = undefined;
    /** @type {Message | null} */
    this.lastMessage = null;
    this.updatedAt = 0;
    /** Whether it belongs in the conversation list (false once the user left it). */
    this.listed = true;
    /** @type {import('./puller.js').PullSource | undefined} a need to pull that came while a pull ran */
    this.pullAgain = undefined;
    /** The highest seq of the live tail handed to the app: the tail is handed over in seq order, gap-free. */
    this.delivered = cursor;
    /** @type {Map<number, MessageSource>} how each message not yet handed over came */
    this.sources = new Map();
    /** @type {Set<number>} the seqs handed to the app: each exactly once, whatever realigns */
    this.handed = new Set();
  }

  /**
   * The live tail's messages now ready for the app, in seq order: up to the first gap.
   * @returns {Array<{message: Message, source: MessageSource}>}
   */
  takeDeliverable() {
    const ready = [];
    while (this.delivered < this.tailEnd) {
      this.delivered += 1;
      const message = this.messages.get(this.delivered);
      if (message && this.hand(this.delivered)) ready.push({ message, source: this.sources.get(this.delivered) ?? 'catchup' });
      this.sources.delete(this.delivered);
    }
    return ready;
  }

  /** The lowest seq held, or null. */
  get oldestSeq() {
    let oldest = null;
    for (const seq of this.messages.keys()) if (oldest === null || seq < oldest) oldest = seq;
    return oldest;
  }

  /** The messages held, ascending by seq (display order is seq alone, R2). */
  sorted() {
    return [...this.messages.values()].sort((a, b) => a.seq - b.seq);
  }

  /**
   * Marks `seq` handed to the app; false when it was already.
   * @param {number} seq
   */
  hand(seq) {
    if (this.handed.has(seq)) return false;
    this.handed.add(seq);
    return true;
  }

  /**
   * Takes one message in; duplicates merge by seq (the same msgId) and a change to a held one (a
   * recall) is an update.
   * @param {Message} message
   * @returns {'new' | 'updated' | 'same'}
   */
  add(message) {
    const held = this.messages.get(message.seq);
    if (message.seq > this.latestSeq) this.latestSeq = message.seq;
    if (!this.lastMessage || message.seq >= this.lastMessage.seq) this.lastMessage = message;
    if (held) {
      if (held.recalled === message.recalled && held.content === message.content) return 'same';
      this.messages.set(message.seq, { ...held, ...message, recalled: held.recalled || message.recalled });
      return 'updated';
    }
    this.messages.set(message.seq, message);
    this.advanceTail();
    return 'new';
  }

  /**
   * Marks `seq` recalled (R6); returns the updated message, or null when it is not held.
   * @param {number} seq
   */
  recall(seq) {
    const held = this.messages.get(seq);
    if (!held || held.recalled) return null;
    const updated = { ...held, recalled: true, content: RECALLED_PLACEHOLDER };
    this.messages.set(seq, updated);
    if (this.lastMessage?.seq === seq) this.lastMessage = updated;
    return updated;
  }

  /** Notes the highest committed seq some answer or frame named. @param {number} seq */
  sawLatest(seq) {
    if (seq > this.latestSeq) this.latestSeq = seq;
  }

  /** Whether this device's cursor is ahead of the server's latest seq (R10: dirty local data). */
  ahead() {
    return this.latestSeq > 0 && this.base > this.latestSeq;
  }

  /**
   * What to fetch next to make the live tail gap-free up to latestSeq: a range (R9), or null.
   * @returns {{after: number, until: number} | null}
   */
  missing() {
    return this.latestSeq > this.tailEnd ? { after: this.tailEnd, until: this.latestSeq } : null;
  }

  /**
   * A first screen (`last=20`) or an archive hint starts the live tail at `seq + 1`: what lies
   * below is history, loaded backwards on demand (R16), not caught up nor waited for by acks.
   * @param {number} seq
   */
  startTailAfter(seq) {
    this.anchored = true;
    if (seq <= this.base) return;
    this.base = seq;
    for (const done of this.done) if (done <= seq) this.done.delete(done);
    if (this.tailEnd < seq) this.tailEnd = seq;
    if (this.delivered < seq) this.delivered = seq;
    this.advanceTail();
    this.advanceBase();
  }

  /**
   * The cursor was ahead of the server (R10, dirty local data): it is forced to the server's
   * latest seq, and the latest messages the server sent with that answer are shown as they are.
   * @param {number} latestSeq
   */
  realign(latestSeq) {
    this.anchored = true;
    this.base = latestSeq;
    this.done.clear();
    this.tailEnd = latestSeq;
    this.delivered = Math.min(this.delivered, latestSeq);
    this.advanceTail();
  }

  /**
   * The app rendered `seq` (or could not and skipped it, R17): moves the ack window.
   * @param {number} seq
   * @returns {boolean} whether the ack to send moved forward
   */
  markDone(seq) {
    if (seq <= this.base || !this.messages.has(seq)) return false;
    this.done.add(seq);
    return this.advanceBase();
  }

  /** @private */
  advanceBase() {
    const before = this.base;
    while (this.done.has(this.base + 1)) {
      this.done.delete(this.base + 1);
      this.base += 1;
    }
    return this.base > before;
  }

  /** @private */
  advanceTail() {
    while (this.messages.has(this.tailEnd + 1)) this.tailEnd += 1;
  }
}
