// Where the library keeps what must survive a restart of the client: each conversation's acked
// seq (its cursor: what this device has rendered) and the sends not yet committed (the outbox,
// so a retry after a restart still carries the same clientMsgId). The library reads it once at
// connect and writes through it; any object with these methods will do (IndexedDB, a file, ...).

/**
 * @typedef {object} OutboxItem
 * @property {string} convId
 * @property {string} clientMsgId made once per message, kept across every retry
 * @property {string} type
 * @property {string} content
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
    this.cursors.clear();
    this.outbox.clear();
  }
}

/**
 * A store in a Web Storage object (`window.localStorage`), one key per user and device, so a
 * page reloaded (or the browser restarted) resumes from its cursors.
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
