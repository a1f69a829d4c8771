// The contract of a store that keeps the local copy (store.js: SeqsyncStore with its optional
// methods), checked against every implementation: MemoryStore and SqliteStore here (node --test),
// IndexedDbStore in Chromium (e2e/tests/web-offline.test.mjs runs this same function in the page,
// so it imports nothing and uses no name from outside itself).

/**
 * Runs every check; throws at the first that fails.
 * @param {{fresh: () => Promise<any>, reopen: (store: any) => Promise<any>}} stores `fresh`: an empty
 *   store; `reopen`: a new instance on the same data (a restart)
 * @returns {Promise<string[]>} the names of the checks that passed
 */
export async function checkStoreContract({ fresh, reopen }) {
  const passed = [];
  const same = (actual, expected, what) => {
    const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
    if (a !== e) throw new Error(`${what}: expected ${e}, got ${a}`);
  };
  const message = (convId, seq, createTime) => ({
    msgId: `${convId}/${seq}`, convId, seq, senderId: '1', senderDevice: 'a', clientMsgId: `c-${convId}-${seq}`,
    type: 'text', content: `m${seq}`, createTime, recalled: false,
  });
  const seqs = (messages) => messages.map((m) => m.seq);
  const check = async (name, body) => {
    await body(await fresh());
    passed.push(name);
  };

  await check('cursors are saved, replaced and read back after a restart', async (store) => {
    await store.saveCursor('d:1:2', 5);
    await store.saveCursor('d:1:2', 9);
    await store.saveCursor('g:7', 1);
    same(await (await reopen(store)).loadCursors(), { 'd:1:2': 9, 'g:7': 1 }, 'cursors');
  });

  await check('the outbox keeps its items until deleted', async (store) => {
    const item = { convId: 'd:1:2', clientMsgId: 'c-1', type: 'text', content: 'hi', createdAt: 10 };
    await store.putOutbox(item);
    await store.putOutbox({ ...item, clientMsgId: 'c-2', createdAt: 11 });
    await store.deleteOutbox('c-1');
    same((await (await reopen(store)).loadOutbox()).map((i) => i.clientMsgId), ['c-2'], 'outbox');
  });

  await check('messages are pages by seq: the newest before a seq, ascending, per conversation', async (store) => {
    await store.putMessages([3, 1, 2, 5, 4].map((seq) => message('d:1:2', seq, 1000 + seq)));
    await store.putMessages([message('g:7', 1, 1)]);
    same(seqs(await store.loadMessages('d:1:2', { limit: 3 })), [3, 4, 5], 'newest 3');
    same(seqs(await store.loadMessages('d:1:2', { before: 4, limit: 2 })), [2, 3], 'before 4');
    same(seqs(await store.loadMessages('d:1:2', { before: 1, limit: 50 })), [], 'before 1');
    same(seqs(await store.loadMessages('d:9:9', { limit: 50 })), [], 'an unknown conversation');
    same(seqs(await (await reopen(store)).loadMessages('g:7', { limit: 50 })), [1], 'the other conversation');
  });

  await check('a message put again replaces the one held (a recall)', async (store) => {
    await store.putMessages([message('d:1:2', 1, 1)]);
    await store.putMessages([{ ...message('d:1:2', 1, 1), recalled: true, content: '[recalled]' }]);
    const [held] = await store.loadMessages('d:1:2', { limit: 50 });
    same([held.recalled, held.content], [true, '[recalled]'], 'recalled');
  });

  await check('deleting messages never touches a cursor, the outbox, the list or the drafts', async (store) => {
    await store.saveCursor('d:1:2', 4);
    await store.saveCursor('g:7', 2);
    await store.putOutbox({ convId: 'd:1:2', clientMsgId: 'c-9', type: 'text', content: 'x', createdAt: 1 });
    await store.putConversations([{ convId: 'd:1:2', latestSeq: 4, readSeq: 4, unread: 0, updatedAt: 4, lastMessage: null, listed: true }]);
    await store.putDraft('d:1:2', { text: 'half', synced: false });
    await store.putMessages([1, 2, 3, 4].map((seq) => message('d:1:2', seq, seq * 1000)));
    await store.putMessages([1, 2].map((seq) => message('g:7', seq, seq * 1000)));
    same(await store.deleteMessages({ convId: 'd:1:2', createdBefore: 3000 }), 2, 'the old ones of one conversation');
    same(seqs(await store.loadMessages('d:1:2', { limit: 50 })), [3, 4], 'left in d:1:2');
    same(seqs(await store.loadMessages('g:7', { limit: 50 })), [1, 2], 'g:7 untouched');
    same(await store.deleteMessages({ createdBefore: 2000 }), 1, 'past the retention, everywhere');
    same(await store.deleteMessages({ convId: 'd:1:2' }), 2, 'one conversation, all');
    same(await store.deleteMessages({}), 1, 'all');
    const after = await reopen(store);
    same(await after.loadCursors(), { 'd:1:2': 4, 'g:7': 2 }, 'cursors');
    same((await after.loadOutbox()).length, 1, 'outbox');
    same((await after.loadConversations()).map((c) => c.convId), ['d:1:2'], 'list');
    same(await after.loadDrafts(), { 'd:1:2': { text: 'half', synced: false } }, 'drafts');
  });

  await check('the list and drafts are kept, replaced by convId; a null draft is deleted', async (store) => {
    const record = { convId: 'g:7', kind: 'group', name: 'Team', members: ['1', '2'], latestSeq: 3, readSeq: 2, unread: 1,
      updatedAt: 99, lastMessage: message('g:7', 3, 99), listed: true };
    await store.putConversations([record, { ...record, convId: 'd:1:2', name: undefined }]);
    await store.putConversations([{ ...record, unread: 0 }]);
    await store.putDraft('g:7', { text: 'a', synced: true });
    await store.putDraft('d:1:2', { text: 'b', synced: false });
    await store.putDraft('d:1:2', null);
    const after = await reopen(store);
    const kept = (await after.loadConversations()).sort((a, b) => (a.convId < b.convId ? -1 : 1));
    same(kept.map((c) => [c.convId, c.unread]), [['d:1:2', 1], ['g:7', 0]], 'list');
    same(kept[1].lastMessage.seq, 3, 'last message');
    same(await after.loadDrafts(), { 'g:7': { text: 'a', synced: true } }, 'drafts');
  });

  await check('clear() forgets everything (sign-out)', async (store) => {
    await store.saveCursor('d:1:2', 4);
    await store.putOutbox({ convId: 'd:1:2', clientMsgId: 'c-1', type: 'text', content: 'x', createdAt: 1 });
    await store.putMessages([message('d:1:2', 1, 1)]);
    await store.putConversations([{ convId: 'd:1:2', latestSeq: 1, readSeq: 1, unread: 0, updatedAt: 1, lastMessage: null, listed: true }]);
    await store.putDraft('d:1:2', { text: 'x', synced: true });
    await store.clear();
    const after = await reopen(store);
    same([await after.loadCursors(), await after.loadOutbox(), await after.loadMessages('d:1:2', { limit: 9 }),
      await after.loadConversations(), await after.loadDrafts()], [{}, [], [], [], {}], 'everything');
  });
  return passed;
}
