// Compiled (not run) against the generated declarations: what a TypeScript app writes.
import { SeqsyncClient, MemoryStore, IndexedDbStore, type SeqsyncError } from '../types/index.js';
import { SqliteStore } from '../types/sqlite-store.js';

const client = new SeqsyncClient({ baseUrl: 'http://localhost:8080', token: 'a.b.c', store: new MemoryStore(), handshake: 'stream' });
client.on('message', ({ convId, message, source }) => {
  const seq: number = message.seq;
  const from: 'push' | 'catchup' | 'fill' | 'first-screen' | 'history' | 'sent' | 'store' = source;
  if (message.type === 'text') client.rendered(convId, seq);
  else client.renderFailed(convId, seq, `cannot show ${message.type} yet (${from})`);
});
client.on('receipt', ({ userId, seq }) => console.log(userId.toUpperCase(), seq + 1));
client.on('draft', ({ text }) => console.log(text?.length));
client.on('state', ({ state }) => { const live: boolean = state === 'live'; return live; });
client.on('list', ({ conversations }) => conversations.map((c) => c.unread + c.latestSeq));
client.on('typing', ({ convId, userId, active }) => console.log(convId, userId, active === true));
client.on('presence', ({ status, lastSeen }) => { const away: boolean = status === 'away'; return away || (lastSeen ?? 0) > 0; });
client.on('delivered', ({ seq }) => seq + 1);
client.typing('d:1:2');
client.setVisibility(true);
client.presence(['2']).then((all) => all.map((p) => p.status));
client.loadReceipts('d:1:2').then(() => client.messageReceipts('d:1:2', 3, '1').seen);
// @ts-expect-error: a presence status is one of four
client.on('presence', ({ status }) => status === 'busy');
const pending = client.send('d:1:2', 'hello');
client.on('cleared', ({ convId }) => convId.length);
const stores = [new IndexedDbStore('seqsync:1:web'), new SqliteStore({ file: ':memory:', scope: '1/node' })];
new SeqsyncClient({ baseUrl: 'http://localhost:8080', token: 'a.b.c', store: stores[0], retentionDays: 7 });
client.clearLocalMessages('d:1:2').then(() => client.loadOlder('d:1:2'));
pending.committed.then((message) => message.seq).catch((error: SeqsyncError) => error.status);
// @ts-expect-error: the event map is checked
client.on('no-such-event', () => {});
// @ts-expect-error: seqs are numbers
client.rendered('d:1:2', '3');
export {};
