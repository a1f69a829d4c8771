// The stores that keep the local copy, held to one contract (store-contract.mjs): MemoryStore, and
// SqliteStore on a real file (reopened for each restart), also several devices' stores in one file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MemoryStore } from '../src/index.js';
import { SqliteStore } from '../src/sqlite-store.js';
import { checkStoreContract } from './store-contract.mjs';

const folder = mkdtempSync(join(tmpdir(), 'seqsync-stores-'));
test.after(() => rmSync(folder, { recursive: true, force: true }));

test('MemoryStore keeps the contract', async () => {
  const passed = await checkStoreContract({ fresh: async () => new MemoryStore(), reopen: async (store) => store });
  assert.equal(passed.length, 7);
});

test('SqliteStore keeps the contract across reopening its file', async () => {
  let files = 0;
  const open = [];
  const passed = await checkStoreContract({
    fresh: async () => {
      const store = new SqliteStore({ file: join(folder, `contract-${(files += 1)}.db`) });
      open.push(store);
      return store;
    },
    reopen: async (store) => {
      store.close();
      const again = new SqliteStore({ file: store.db.name });
      open.push(again);
      return again;
    },
  });
  assert.equal(passed.length, 7);
  for (const store of open) store.close();
});

test('SqliteStore: devices sharing one database see only their own scope', async () => {
  const database = new Database(join(folder, 'shared.db'));
  const [a, b] = [new SqliteStore({ database, scope: '1/a' }), new SqliteStore({ database, scope: '2/b' })];
  await a.saveCursor('d:1:2', 7);
  await b.saveCursor('d:1:2', 3);
  const message = { msgId: 'x', convId: 'd:1:2', seq: 1, senderId: '1', senderDevice: 'a', clientMsgId: 'c', type: 'text',
    content: 'hi', createTime: 1, recalled: false };
  await a.putMessages([message]);
  await b.clear();
  assert.deepEqual(await a.loadCursors(), { 'd:1:2': 7 });
  assert.deepEqual(await b.loadCursors(), {});
  assert.equal((await a.loadMessages('d:1:2', { limit: 5 })).length, 1);
  assert.equal((await b.loadMessages('d:1:2', { limit: 5 })).length, 0);
  a.close(); // not its database: still open for the other store
  assert.deepEqual(await b.loadCursors(), {});
  database.close();
});
