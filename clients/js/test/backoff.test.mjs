// Full jitter: delays spread uniformly up to an exponential ceiling, never beyond the cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff, fullJitter } from '../src/backoff.js';
import { WebStorageStore } from '../src/store.js';
import { parseToken } from '../src/api.js';

test('delays are uniform below min(cap, base * 2^attempt)', () => {
  assert.equal(fullJitter(0, { baseMs: 100, capMs: 1000, random: () => 0.999 }), 99);
  assert.equal(fullJitter(3, { baseMs: 100, capMs: 1000, random: () => 0.5 }), 400);
  assert.equal(fullJitter(30, { baseMs: 100, capMs: 1000, random: () => 0.999 }), 999);
  assert.equal(fullJitter(5, { baseMs: 100, capMs: 1000, random: () => 0 }), 0);
  const backoff = new Backoff({ baseMs: 100, capMs: 1000, random: () => 0.999 });
  assert.deepEqual([backoff.next(), backoff.next(), backoff.next()], [99, 199, 399]);
  backoff.reset();
  assert.equal(backoff.next(), 99);
});

test('10,000 clients dropped at once spread over the whole window', () => {
  const delays = Array.from({ length: 10_000 }, () => fullJitter(10, { baseMs: 500, capMs: 10_000 }));
  const perSecond = new Array(10).fill(0);
  for (const delay of delays) perSecond[Math.floor(delay / 1000)] += 1;
  for (const count of perSecond) assert.ok(count > 800 && count < 1200, perSecond.join(' '));
});

test('a web storage store keeps cursors and the outbox; unreadable state starts over', async () => {
  const map = new Map();
  const storage = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, v) };
  const store = new WebStorageStore(storage, 'seqsync:1:web');
  await store.saveCursor('d:1:2', 7);
  await store.putOutbox({ convId: 'd:1:2', clientMsgId: 'c-1', type: 'text', content: 'hi', createdAt: 1 });
  const again = new WebStorageStore(storage, 'seqsync:1:web');
  assert.deepEqual(await again.loadCursors(), { 'd:1:2': 7 });
  assert.equal((await again.loadOutbox())[0].clientMsgId, 'c-1');
  await again.deleteOutbox('c-1');
  assert.deepEqual(await again.loadOutbox(), []);
  map.set('seqsync:1:web:cursors', '{broken');
  assert.deepEqual(await again.loadCursors(), {});
});

test('a token names its caller', () => {
  const claims = Buffer.from(JSON.stringify({ sub: '12', did: 'phone', exp: 1 })).toString('base64url');
  assert.deepEqual(parseToken(`e30.${claims}.sig`), { userId: '12', deviceId: 'phone' });
  assert.throws(() => parseToken('nonsense'));
});
