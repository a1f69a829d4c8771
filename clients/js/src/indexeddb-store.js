// The browser's local copy (store.js's full SeqsyncStore): one IndexedDB database per user and
// device, with cursors, outbox, messages (keyed by [convId, seq], indexed by createTime for the
// retention), the conversation list and drafts in object stores of their own. No dependency: the
// browser's IndexedDB, each call one transaction.

/** @typedef {import('./store.js').SeqsyncStore} SeqsyncStore */
/** @typedef {import('./store.js').OutboxItem} OutboxItem */
/** @typedef {import('./store.js').ConversationRecord} ConversationRecord */
/** @typedef {import('./store.js').DraftRecord} DraftRecord */
/** @typedef {import('./conversation.js').Message} Message */

const VERSION = 1;
const STORES = ['cursors', 'outbox', 'messages', 'conversations', 'drafts'];
const LAST_SEQ = Number.MAX_SAFE_INTEGER;

/**
 * @param {IDBRequest} request
 * @returns {Promise<any>}
 */
function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** @param {IDBTransaction} tx */
function committed(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(undefined);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/** @implements {SeqsyncStore} */
export class IndexedDbStore {
  /**
   * @param {string} name the database's name, one per user and device, e.g. `seqsync:1:laptop`
   * @param {IDBFactory} [factory] default: the global indexedDB
   */
  constructor(name, factory = globalThis.indexedDB) {
    if (!factory) throw new Error('no IndexedDB here: use WebStorageStore or MemoryStore');
    this.name = name;
    this.factory = factory;
    /** @type {Promise<IDBDatabase> | null} */
    this.opening = null;
  }

  /** @returns {Promise<IDBDatabase>} */
  db() {
    this.opening ??= new Promise((resolve, reject) => {
      const request = this.factory.open(this.name, VERSION);
      request.onupgradeneeded = () => {
        const db = request.result;
        db.createObjectStore('cursors', { keyPath: 'convId' });
        db.createObjectStore('outbox', { keyPath: 'clientMsgId' });
        db.createObjectStore('messages', { keyPath: ['convId', 'seq'] }).createIndex('createTime', 'createTime');
        db.createObjectStore('conversations', { keyPath: 'convId' });
        db.createObjectStore('drafts', { keyPath: 'convId' });
      };
      request.onsuccess = () => {
        // Another tab upgrading (a newer version of the page) must not wait for this one.
        request.result.onversionchange = () => { request.result.close(); this.opening = null; };
        resolve(request.result);
      };
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error(`IndexedDB ${this.name} is blocked by another tab`));
    });
    this.opening.catch(() => { this.opening = null; });
    return this.opening;
  }

  /**
   * @template T
   * @param {string | string[]} stores
   * @param {IDBTransactionMode} mode
   * @param {(tx: IDBTransaction) => T} work
   * @returns {Promise<T>}
   */
  async run(stores, mode, work) {
    const tx = (await this.db()).transaction(stores, mode);
    const result = work(tx);
    await committed(tx);
    return result;
  }

  /** @param {string} store @returns {Promise<any[]>} */
  async all(store) {
    return done((await this.db()).transaction(store, 'readonly').objectStore(store).getAll());
  }

  async loadCursors() {
    /** @type {Array<{convId: string, seq: number}>} */
    const rows = await this.all('cursors');
    return Object.fromEntries(rows.map((row) => [row.convId, row.seq]));
  }

  /** @param {string} convId @param {number} seq */
  async saveCursor(convId, seq) {
    await this.run('cursors', 'readwrite', (tx) => { tx.objectStore('cursors').put({ convId, seq }); });
  }

  /** @returns {Promise<OutboxItem[]>} */
  loadOutbox() { return this.all('outbox'); }

  /** @param {OutboxItem} item */
  async putOutbox(item) {
    await this.run('outbox', 'readwrite', (tx) => { tx.objectStore('outbox').put(item); });
  }

  /** @param {string} clientMsgId */
  async deleteOutbox(clientMsgId) {
    await this.run('outbox', 'readwrite', (tx) => { tx.objectStore('outbox').delete(clientMsgId); });
  }

  /** @param {Message[]} messages */
  async putMessages(messages) {
    if (messages.length === 0) return;
    await this.run('messages', 'readwrite', (tx) => {
      const store = tx.objectStore('messages');
      for (const message of messages) store.put(message);
    });
  }

  /** @param {string} convId @param {{before?: number, limit: number}} page */
  async loadMessages(convId, { before = LAST_SEQ + 1, limit }) {
    const range = IDBKeyRange.bound([convId, 0], [convId, before], false, true);
    /** @type {Message[]} */
    const newestFirst = [];
    await this.run('messages', 'readonly', (tx) => {
      const request = tx.objectStore('messages').openCursor(range, 'prev');
      request.onsuccess = () => {
        const cursor = request.result;
        if (!cursor || newestFirst.length >= limit) return;
        newestFirst.push(cursor.value);
        cursor.continue();
      };
    });
    return newestFirst.reverse();
  }

  /** @param {{convId?: string, createdBefore?: number}} which */
  async deleteMessages({ convId, createdBefore }) {
    let deleted = 0;
    await this.run('messages', 'readwrite', (tx) => {
      const store = tx.objectStore('messages');
      const request = createdBefore === undefined
        ? store.openCursor(convId === undefined ? null : IDBKeyRange.bound([convId, 0], [convId, LAST_SEQ]))
        : store.index('createTime').openCursor(IDBKeyRange.upperBound(createdBefore, true));
      request.onsuccess = () => {
        const cursor = request.result;
        if (!cursor) return;
        if (convId === undefined || cursor.value.convId === convId) {
          cursor.delete();
          deleted += 1;
        }
        cursor.continue();
      };
    });
    return deleted;
  }

  /** @returns {Promise<ConversationRecord[]>} */
  loadConversations() { return this.all('conversations'); }

  /** @param {ConversationRecord[]} records */
  async putConversations(records) {
    if (records.length === 0) return;
    await this.run('conversations', 'readwrite', (tx) => {
      const store = tx.objectStore('conversations');
      for (const record of records) store.put(record);
    });
  }

  async loadDrafts() {
    /** @type {Array<DraftRecord & {convId: string}>} */
    const rows = await this.all('drafts');
    return Object.fromEntries(rows.map(({ convId, text, synced }) => [convId, { text, synced }]));
  }

  /** @param {string} convId @param {DraftRecord | null} draft */
  async putDraft(convId, draft) {
    await this.run('drafts', 'readwrite', (tx) => {
      if (draft) tx.objectStore('drafts').put({ convId, ...draft });
      else tx.objectStore('drafts').delete(convId);
    });
  }

  async clear() {
    await this.run(STORES, 'readwrite', (tx) => { for (const store of STORES) tx.objectStore(store).clear(); });
  }
}
