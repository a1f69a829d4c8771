// Where the library keeps what must survive a restart of the client: each conversation's acked
// seq (its cursor: what this device has rendered) and the sends not yet committed (the outbox,
// so a retry after a restart still carries the same clientMsgId). The library reads it once at
// connect and writes through it; any object with these methods will do (IndexedDB, a file, ...).
// A store that also keeps messages, the conversation list and drafts (the optional methods below:
// MemoryStore, IndexedDbStore, SqliteStore) is the device's local copy (local-copy.js): a
// conversation opens from it at once, also without the network. Messages and cursors are kept
// apart: deleting messages never moves a cursor.

/**
 * @typedef {object} OutboxItem
 * @property {string} convId
 * @property {string} clientMsgId made once per message, kept across every retry
 * @property {string} type
 * @property {string} content
 * @property {import('./attachments.js').Attachment} [attachment] an uploaded object the message carries
 * @property {number} createdAt epoch ms, strictly increasing in one outbox: a conversation's sends go out in this order
 * @property {number} [replyTo] message actions: the seq of the message it replies to
 * @property {string[]} [mentions] message actions: the user ids it mentions
 */

/**
 * @typedef {object} SeqsyncStore
 * @property {() => Promise<Record<string, number>>} loadCursors
 * @property {(convId: string, seq: number) => Promise<void>} saveCursor
 * @property {() => Promise<OutboxItem[]>} loadOutbox
 * @property {(item: OutboxItem) => Promise<void>} putOutbox
 * @property {(clientMsgId: string) => Promise<void>} deleteOutbox
 * @property {() => Promise<void>} [clear] forgets everything it holds (sign-out)
 * @property {(messages: Message[]) => Promise<void>} [putMessages] adds or replaces messages, by convId and seq
 * @property {(convId: string, page: {before?: number, limit: number}) => Promise<Message[]>} [loadMessages]
 *   the newest `limit` messages of a conversation with a seq below `before` (all when absent), ascending by seq
 * @property {(which: {convId?: string, createdBefore?: number}) => Promise<number>} [deleteMessages] deletes
 *   the messages of one conversation (or all) created before a time (or all); never a cursor; returns how many
 * @property {() => Promise<ConversationRecord[]>} [loadConversations]
 * @property {(records: ConversationRecord[]) => Promise<void>} [putConversations] adds or replaces, by convId
 * @property {() => Promise<Record<string, DraftRecord>>} [loadDrafts]
 * @property {(convId: string, draft: DraftRecord | null) => Promise<void>} [putDraft] null deletes it
 */

/** @typedef {import('./conversation.js').Message} Message */

/**
 * What the conversation list shows of a conversation (R20), kept so that the list shows offline.
 * @typedef {object} ConversationRecord
 * @property {string} convId
 * @property {string} [kind]
 * @property {string} [name]
 * @property {string[]} [members]
 * @property {number} latestSeq
 * @property {number} readSeq
 * @property {number} unread
 * @property {number} updatedAt
 * @property {Message | null} lastMessage
 * @property {boolean} listed
 */

/**
 * The user's draft of a conversation; `synced`: the server has it (one typed offline has not).
 * @typedef {{text: string | null, synced: boolean}} DraftRecord
 */

/**
 * The default store: in memory, gone with the process. Share one instance between two clients
 * in a test to stand for a client restarted on its persisted state.
 * @implements {SeqsyncStore}
 */
export class MemoryStore {
  constructor() {
    /** @type {Map<string, number>} */
    this.cursors = new Map();
    /** @type {Map<string, OutboxItem>} */
    this.outbox = new Map();
    /** @type {Map<string, Map<number, Message>>} by convId, then seq */
    this.messages = new Map();
    /** @type {Map<string, ConversationRecord>} */
    this.conversations = new Map();
    /** @type {Map<string, DraftRecord>} */
    this.drafts = new Map();
  }

  /** @param {Message[]} messages */
  async putMessages(messages) {
    for (const message of messages) {
      let held = this.messages.get(message.convId);
      if (!held) this.messages.set(message.convId, (held = new Map()));
      held.set(message.seq, { ...message });
    }
  }

  /** @param {string} convId @param {{before?: number, limit: number}} page */
  async loadMessages(convId, { before = Infinity, limit }) {
    const below = [...(this.messages.get(convId)?.values() ?? [])].filter((message) => message.seq < before);
    return below.sort((a, b) => a.seq - b.seq).slice(-limit).map((message) => ({ ...message }));
  }

  /** @param {{convId?: string, createdBefore?: number}} which */
  async deleteMessages({ convId, createdBefore = Infinity }) {
    let deleted = 0;
    for (const [id, held] of this.messages) {
      if (convId !== undefined && id !== convId) continue;
      for (const [seq, message] of held) {
        if (message.createTime < createdBefore && held.delete(seq)) deleted += 1;
      }
    }
    return deleted;
  }

  async loadConversations() { return [...this.conversations.values()].map((record) => ({ ...record })); }

  /** @param {ConversationRecord[]} records */
  async putConversations(records) {
    for (const record of records) this.conversations.set(record.convId, { ...record });
  }

  async loadDrafts() { return Object.fromEntries(this.drafts); }

  /** @param {string} convId @param {DraftRecord | null} draft */
  async putDraft(convId, draft) {
    if (draft) this.drafts.set(convId, { ...draft });
    else this.drafts.delete(convId);
  }

  async loadCursors() { return Object.fromEntries(this.cursors); }

  /** @param {string} convId @param {number} seq */
  async saveCursor(convId, seq) { this.cursors.set(convId, seq); }

  async loadOutbox() { return [...this.outbox.values()]; }

  /** @param {OutboxItem} item */
  async putOutbox(item) { this.outbox.set(item.clientMsgId, { ...item }); }

  /** @param {string} clientMsgId */
  async deleteOutbox(clientMsgId) { this.outbox.delete(clientMsgId); }

  async clear() {
    for (const map of [this.cursors, this.outbox, this.messages, this.conversations, this.drafts]) map.clear();
  }
}

/**
 * A store in a Web Storage object (`window.localStorage`), one key per user and device, so a
 * page reloaded (or the browser restarted) resumes from its cursors. It keeps no messages (Web
 * Storage is small and synchronous): IndexedDbStore is the browser's local copy.
 * @implements {SeqsyncStore}
 */
export class WebStorageStore {
  /**
   * @param {{getItem(key: string): string | null, setItem(key: string, value: string): void,
   *   removeItem(key: string): void}} storage
   * @param {string} prefix e.g. `seqsync:1:phone`
   */
  constructor(storage, prefix) {
    this.storage = storage;
    this.prefix = prefix;
  }

  /** @param {string} name */
  read(name) {
    try {
      return JSON.parse(this.storage.getItem(`${this.prefix}:${name}`) ?? '{}') ?? {};
    } catch {
      return {}; // unreadable local state: start over, the server's cursors are the safety net
    }
  }

  /** @param {string} name @param {object} value */
  write(name, value) { this.storage.setItem(`${this.prefix}:${name}`, JSON.stringify(value)); }

  async loadCursors() { return this.read('cursors'); }

  /** @param {string} convId @param {number} seq */
  async saveCursor(convId, seq) { this.write('cursors', { ...this.read('cursors'), [convId]: seq }); }

  async loadOutbox() { return Object.values(this.read('outbox')); }

  /** @param {OutboxItem} item */
  async putOutbox(item) { this.write('outbox', { ...this.read('outbox'), [item.clientMsgId]: item }); }

  /** @param {string} clientMsgId */
  async deleteOutbox(clientMsgId) {
    const outbox = this.read('outbox');
    delete outbox[clientMsgId];
    this.write('outbox', outbox);
  }

  async clear() {
    for (const name of ['cursors', 'outbox']) this.storage.removeItem(`${this.prefix}:${name}`);
  }
}
