// Node's local copy (store.js's full SeqsyncStore) in SQLite, through better-sqlite3 12 (an
// optional peer dependency: browsers never load this module; `seqsync-client/sqlite`). One
// database file can hold many devices, each under a scope of its own (a benchmark's thousands
// of clients share one file and one connection). Rows hold JSON, keyed for the lookups the
// library makes: messages by (scope, convId, seq) and by createTime for the retention.
import Database from 'better-sqlite3';

/** @typedef {import('./store.js').SeqsyncStore} SeqsyncStore */
/** @typedef {import('./store.js').OutboxItem} OutboxItem */
/** @typedef {import('./store.js').ConversationRecord} ConversationRecord */
/** @typedef {import('./store.js').DraftRecord} DraftRecord */
/** @typedef {import('./conversation.js').Message} Message */

const SCHEMA = `
  create table if not exists cursors (scope text not null, conv_id text not null, seq integer not null,
    primary key (scope, conv_id)) without rowid;
  create table if not exists outbox (scope text not null, client_msg_id text not null, item text not null,
    primary key (scope, client_msg_id)) without rowid;
  create table if not exists messages (scope text not null, conv_id text not null, seq integer not null,
    create_time integer not null, message text not null, primary key (scope, conv_id, seq)) without rowid;
  create index if not exists messages_by_time on messages (scope, create_time);
  create table if not exists conversations (scope text not null, conv_id text not null, record text not null,
    primary key (scope, conv_id)) without rowid;
  create table if not exists drafts (scope text not null, conv_id text not null, draft text not null,
    primary key (scope, conv_id)) without rowid;
`;
const TABLES = ['cursors', 'outbox', 'messages', 'conversations', 'drafts'];

/** @implements {SeqsyncStore} */
export class SqliteStore {
  /**
   * @param {{file?: string, database?: any, scope?: string}} options `file` (`:memory:` for none) or an open
   *   better-sqlite3 `database` shared with other stores; `scope`: this device's part of it (default '')
   */
  constructor({ file, database, scope = '' }) {
    if (!database && !file) throw new Error('SqliteStore needs a file or a database');
    this.db = database ?? new Database(file);
    this.owned = !database;
    if (this.owned) this.db.pragma('journal_mode = WAL'); // readers do not wait for the writer
    this.db.exec(SCHEMA);
    this.scope = scope;
    const sql = (/** @type {string} */ text) => this.db.prepare(text);
    this.sql = {
      cursors: sql('select conv_id, seq from cursors where scope = ?'),
      saveCursor: sql('insert into cursors values (?, ?, ?) on conflict do update set seq = excluded.seq'),
      outbox: sql('select item from outbox where scope = ?'),
      putOutbox: sql('insert or replace into outbox values (?, ?, ?)'),
      deleteOutbox: sql('delete from outbox where scope = ? and client_msg_id = ?'),
      putMessage: sql('insert or replace into messages values (?, ?, ?, ?, ?)'),
      messages: sql(`select message from messages where scope = ? and conv_id = ? and seq < ?
        order by seq desc limit ?`),
      deleteConv: sql('delete from messages where scope = ? and conv_id = ? and create_time < ?'),
      deleteAll: sql('delete from messages where scope = ? and create_time < ?'),
      conversations: sql('select record from conversations where scope = ?'),
      putConversation: sql('insert or replace into conversations values (?, ?, ?)'),
      drafts: sql('select conv_id, draft from drafts where scope = ?'),
      putDraft: sql('insert or replace into drafts values (?, ?, ?)'),
      deleteDraft: sql('delete from drafts where scope = ? and conv_id = ?'),
    };
    this.putMessagesAtOnce = this.db.transaction((/** @type {Message[]} */ messages) => {
      for (const m of messages) this.sql.putMessage.run(this.scope, m.convId, m.seq, m.createTime, JSON.stringify(m));
    });
    this.putConversationsAtOnce = this.db.transaction((/** @type {ConversationRecord[]} */ records) => {
      for (const record of records) this.sql.putConversation.run(this.scope, record.convId, JSON.stringify(record));
    });
    this.clearAtOnce = this.db.transaction(() => {
      for (const table of TABLES) this.db.prepare(`delete from ${table} where scope = ?`).run(this.scope);
    });
  }

  async loadCursors() {
    /** @type {Array<{conv_id: string, seq: number}>} */
    const rows = this.sql.cursors.all(this.scope);
    return Object.fromEntries(rows.map((row) => [row.conv_id, row.seq]));
  }

  /** @param {string} convId @param {number} seq */
  async saveCursor(convId, seq) { this.sql.saveCursor.run(this.scope, convId, seq); }

  /** @returns {Promise<OutboxItem[]>} */
  async loadOutbox() { return this.sql.outbox.all(this.scope).map((/** @type {any} */ row) => JSON.parse(row.item)); }

  /** @param {OutboxItem} item */
  async putOutbox(item) { this.sql.putOutbox.run(this.scope, item.clientMsgId, JSON.stringify(item)); }

  /** @param {string} clientMsgId */
  async deleteOutbox(clientMsgId) { this.sql.deleteOutbox.run(this.scope, clientMsgId); }

  /** @param {Message[]} messages */
  async putMessages(messages) { this.putMessagesAtOnce(messages); }

  /** @param {string} convId @param {{before?: number, limit: number}} page */
  async loadMessages(convId, { before = Number.MAX_SAFE_INTEGER, limit }) {
    const rows = this.sql.messages.all(this.scope, convId, before, limit);
    return rows.reverse().map((/** @type {any} */ row) => JSON.parse(row.message));
  }

  /** @param {{convId?: string, createdBefore?: number}} which */
  async deleteMessages({ convId, createdBefore = Number.MAX_SAFE_INTEGER }) {
    const result = convId === undefined
      ? this.sql.deleteAll.run(this.scope, createdBefore)
      : this.sql.deleteConv.run(this.scope, convId, createdBefore);
    return result.changes;
  }

  /** @returns {Promise<ConversationRecord[]>} */
  async loadConversations() {
    return this.sql.conversations.all(this.scope).map((/** @type {any} */ row) => JSON.parse(row.record));
  }

  /** @param {ConversationRecord[]} records */
  async putConversations(records) { this.putConversationsAtOnce(records); }

  async loadDrafts() {
    /** @type {Array<{conv_id: string, draft: string}>} */
    const rows = this.sql.drafts.all(this.scope);
    return Object.fromEntries(rows.map((row) => [row.conv_id, JSON.parse(row.draft)]));
  }

  /** @param {string} convId @param {DraftRecord | null} draft */
  async putDraft(convId, draft) {
    if (draft) this.sql.putDraft.run(this.scope, convId, JSON.stringify(draft));
    else this.sql.deleteDraft.run(this.scope, convId);
  }

  async clear() { this.clearAtOnce(); }

  /** Closes the database, when this store opened it. */
  close() {
    if (this.owned) this.db.close();
  }
}
