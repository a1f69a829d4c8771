// The device's local copy (issue 40): what the client received is written to the store (messages
// of the last `retentionDays`, the conversation list, drafts), and read back so that the list shows
// at connect and a conversation opens at once, also without the network; the server reconciles it
// afterwards (the same seqs merge, recalls update). It is decoupled from the ack: messages deleted
// here (cleared, or past the retention) never move a cursor, and messages read back from the store
// are at or below what was acked, or are handed to the app again like any message not yet rendered.
// A store without the message methods (WebStorageStore) keeps no copy: then this does nothing.
import { RECALLED_PLACEHOLDER } from './conversation.js';

/** @typedef {import('./conversation.js').Conversation} Conversation */
/** @typedef {import('./conversation.js').Message} Message */
/** @typedef {import('./store.js').SeqsyncStore} SeqsyncStore */
/** @typedef {import('./store.js').ConversationRecord} ConversationRecord */

export const RETENTION_DAYS = 30;
/** How many of its newest messages a conversation opens with from the store; older ones come by pages of 50. */
export const LOCAL_SCREEN = 100;
const PAGE = 50;
const LOCAL_METHODS = ['putMessages', 'loadMessages', 'deleteMessages', 'loadConversations', 'putConversations',
  'loadDrafts', 'putDraft'];
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * @typedef {object} LocalCopyHost the client, as far as the local copy needs it
 * @property {(event: any, listener: (payload: any) => void) => void} on
 * @property {Map<string, Conversation>} conversations
 * @property {(convId: string) => Conversation} conversation
 * @property {(conv: Conversation, messages: Message[], source: any) => void} ingest
 * @property {(convId: string, text: string) => Promise<unknown>} setDraft
 * @property {() => void} listChanged
 * @property {(error: unknown, during: string) => void} failed
 * @property {(event: any, payload: any) => void} emit
 * @property {{call: (method: string, path: string, options?: any) => Promise<any>}} api
 */

export class LocalCopy {
  /**
   * @param {LocalCopyHost} client
   * @param {SeqsyncStore} store
   * @param {{retentionDays?: number, now?: () => number}} [options]
   */
  constructor(client, store, { retentionDays = RETENTION_DAYS, now = Date.now } = {}) {
    this.client = client;
    /** @type {Required<SeqsyncStore>} used only when `enabled`: the store has the methods of the local copy */
    this.store = /** @type {any} */ (store);
    this.retentionMs = retentionDays * DAY_MS;
    this.now = now;
    this.enabled = LOCAL_METHODS.every((method) => typeof (/** @type {any} */ (store))[method] === 'function');
    /** @type {Map<string, Message>} messages to write, by convId and seq */
    this.unwritten = new Map();
    /** @type {Set<string>} convIds whose list entry may have changed */
    this.listDirty = new Set();
    /** @type {Map<string, string>} what was last written of each list entry */
    this.listWritten = new Map();
    /** @type {Set<string>} conversations read from the store since the start (or the last clear) */
    this.shown = new Set();
    /** @type {Map<string, string>} drafts typed while the server could not take them */
    this.unsyncedDrafts = new Map();
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    /** @type {Promise<void>} */
    this.writing = Promise.resolve();
    if (!this.enabled) return;
    client.on('message', ({ convId, message, source }) => {
      if (source !== 'store') this.keep(message);
      if (message.type === 'recall' && !client.conversation(convId).messages.has(Number(message.content))) {
        this.after(() => this.recallStored(convId, Number(message.content)));
      }
    });
    client.on('updated', ({ message }) => { if (message) this.keep(message); });
    client.on('list', () => {
      for (const conv of client.conversations.values()) this.listDirty.add(conv.convId);
      this.schedule();
    });
    client.on('draft', ({ convId, text }) => this.draft(convId, text, true));
    client.on('state', ({ state }) => { if (state === 'live') this.resendDrafts(); });
  }

  /** The oldest createTime kept. */
  cutoff() {
    return this.now() - this.retentionMs;
  }

  /**
   * At connect, before the socket: what is past the retention goes, and the list and drafts come
   * back into the client's conversations (which already hold the stored cursors).
   */
  async restore() {
    if (!this.enabled) return;
    await this.store.deleteMessages({ createdBefore: this.cutoff() });
    for (const record of await this.store.loadConversations()) {
      const conv = this.client.conversation(record.convId);
      conv.sawLatest(record.latestSeq);
      Object.assign(conv, {
        kind: record.kind ?? conv.kind, name: record.name ?? conv.name, members: record.members ?? conv.members,
        readSeq: Math.max(conv.readSeq, record.readSeq), unread: record.unread, listed: record.listed,
        updatedAt: Math.max(conv.updatedAt, record.updatedAt), lastMessage: conv.lastMessage ?? record.lastMessage,
      });
      this.listWritten.set(record.convId, JSON.stringify(record));
    }
    for (const [convId, draft] of Object.entries(await this.store.loadDrafts())) {
      this.client.conversation(convId).draft = draft.text;
      if (!draft.synced && draft.text !== null) this.unsyncedDrafts.set(convId, draft.text);
    }
    this.client.listChanged();
  }

  /**
   * A conversation being opened: its newest stored messages, handed over at once (before any
   * request). Only a run without gaps, from the newest stored down, is taken: seqs are gap-free.
   * @param {Conversation} conv
   */
  async show(conv) {
    if (!this.enabled || this.shown.has(conv.convId)) return;
    this.shown.add(conv.convId);
    const run = contiguousTop(await this.store.loadMessages(conv.convId, { limit: LOCAL_SCREEN }));
    const top = run.at(-1)?.seq ?? 0;
    if (top === 0 || top < conv.base - LOCAL_SCREEN) return; // far below the cursor: the server's first screen instead
    this.take(conv, run);
    if (conv.hasOlder === undefined) conv.hasOlder = run[0].seq > 1;
    // Rendered here but never written (the page closed first): fetched as history, below the cursor.
    if (top < conv.base) this.fillBelowCursor(conv, top).catch((error) => this.client.failed(error, 'local fill'));
  }

  /**
   * Older messages from the store, up to a page of 50 right below the oldest held; 0 when the
   * store has none that join it (the server is asked then).
   * @param {Conversation} conv
   */
  async older(conv) {
    const oldest = conv.oldestSeq;
    if (!this.enabled || oldest === null || oldest <= 1) return 0;
    const page = await this.store.loadMessages(conv.convId, { before: oldest, limit: PAGE });
    const run = contiguousTop(page);
    if (run.length === 0 || run[run.length - 1].seq !== oldest - 1) return 0;
    this.take(conv, run);
    conv.hasOlder = run[0].seq > 1;
    return run.length;
  }

  /**
   * Deletes the stored messages of one conversation (or all) and forgets them in memory; cursors
   * stay, so what comes again from the server is neither acked backwards nor past what was rendered.
   * @param {string} [convId]
   */
  async clear(convId) {
    if (!this.enabled) return;
    await this.flush();
    await this.store.deleteMessages(convId === undefined ? {} : { convId });
    const convs = convId === undefined ? [...this.client.conversations.values()] : [this.client.conversation(convId)];
    for (const conv of convs) {
      conv.messages.clear();
      conv.handed.clear();
      conv.sources.clear();
      conv.tailEnd = conv.base;
      conv.delivered = conv.base;
      conv.hasOlder = undefined;
      this.shown.delete(conv.convId);
      this.client.emit('cleared', { convId: conv.convId });
    }
  }

  /**
   * The user's draft, kept here; `synced` once the server took it.
   * @param {string} convId
   * @param {string | null} text
   * @param {boolean} synced
   */
  draft(convId, text, synced) {
    if (!this.enabled) return;
    if (synced) this.unsyncedDrafts.delete(convId);
    else if (text !== null) this.unsyncedDrafts.set(convId, text);
    this.after(() => this.store.putDraft(convId, text === null ? null : { text, synced }));
  }

  /** Writes what is pending now; resolves when written. */
  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const messages = [...this.unwritten.values()];
    this.unwritten.clear();
    const records = this.changedRecords();
    if (messages.length > 0) this.after(() => this.store.putMessages(messages));
    if (records.length > 0) this.after(() => this.store.putConversations(records));
    return this.writing;
  }

  /**
   * Hands stored messages over, recalled ones as recalled: a recall notice stored with its target
   * is applied before the target is shown, so it never shows unrecalled first.
   * @private @param {Conversation} conv @param {Message[]} run ascending, gap-free
   */
  take(conv, run) {
    const recalled = new Set(run.filter((message) => message.type === 'recall').map((message) => Number(message.content)));
    this.client.ingest(conv, run.map((message) => (recalled.has(message.seq) && !message.recalled
      ? { ...message, recalled: true, content: RECALLED_PLACEHOLDER } : message)), 'store');
  }

  /** @private @param {Conversation} conv @param {number} after */
  async fillBelowCursor(conv, after) {
    for (let from = after; from < conv.base;) {
      const page = await this.client.api.call('GET', `/v1/conversations/${encodeURIComponent(conv.convId)}/messages`,
        { kind: 'history', query: { after: from, until: conv.base, limit: PAGE } });
      if (page.messages.length === 0) return;
      this.client.ingest(conv, page.messages, 'history');
      from = page.messages[page.messages.length - 1].seq;
    }
  }

  /** @private @param {Message} message */
  keep(message) {
    if (message.createTime < this.cutoff()) return; // an older page, scrolled to: not kept
    this.unwritten.set(`${message.convId}\u0000${message.seq}`, message);
    this.schedule();
  }

  /** @private One write a turn of the event loop, not one a message. */
  schedule() {
    this.timer ??= setTimeout(() => { this.timer = null; this.flush(); }, 0);
  }

  /** @private @returns {ConversationRecord[]} */
  changedRecords() {
    const records = [];
    for (const convId of this.listDirty) {
      const conv = this.client.conversations.get(convId);
      if (!conv || conv.updatedAt === 0) continue;
      const record = {
        convId, kind: conv.kind, name: conv.name, members: conv.members, latestSeq: conv.latestSeq,
        readSeq: conv.readSeq, unread: conv.unread, updatedAt: conv.updatedAt, lastMessage: conv.lastMessage,
        listed: conv.listed,
      };
      const json = JSON.stringify(record);
      if (this.listWritten.get(convId) === json) continue;
      this.listWritten.set(convId, json);
      records.push(record);
    }
    this.listDirty.clear();
    return records;
  }

  /** @private @param {string} convId @param {number} seq a recall of a message not held in memory */
  async recallStored(convId, seq) {
    const [held] = await this.store.loadMessages(convId, { before: seq + 1, limit: 1 });
    if (held?.seq !== seq || held.recalled) return;
    await this.store.putMessages([{ ...held, recalled: true, content: RECALLED_PLACEHOLDER }]);
  }

  /** @private Drafts typed while the server could not take them, sent once live. */
  resendDrafts() {
    for (const [convId, text] of this.unsyncedDrafts) {
      this.client.setDraft(convId, text).catch((error) => this.client.failed(error, 'draft'));
    }
  }

  /** @private @param {() => unknown} write one after another, in the order asked */
  after(write) {
    this.writing = this.writing.then(write).then(() => {}, (error) => this.client.failed(error, 'local store'));
  }
}

/**
 * The gap-free run at the top of an ascending page: from its newest message down to the first gap.
 * @param {Message[]} page
 */
function contiguousTop(page) {
  let start = page.length - 1;
  while (start > 0 && page[start - 1].seq === page[start].seq - 1) start -= 1;
  return page.slice(Math.max(start, 0));
}
