// The pure protocol state of one conversation: the live tail, gaps, the ack window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation, RECALLED_PLACEHOLDER } from '../src/conversation.js';

const message = (seq, extra = {}) => ({
  msgId: String(1000 + seq), convId: 'd:1:2', seq, senderId: '2', senderDevice: 'phone', clientMsgId: `c${seq}`,
  type: 'text', content: `m${seq}`, createTime: seq, recalled: false, ...extra,
});

test('a seq jump leaves a gap to fetch as a range; filling it hands the tail over in order', () => {
  const conv = new Conversation('d:1:2', 3);
  conv.add(message(4));
  assert.deepEqual(conv.takeDeliverable().map((m) => m.message.seq), [4]);
  conv.add(message(7));
  assert.deepEqual(conv.missing(), { after: 4, until: 7 });
  assert.deepEqual(conv.takeDeliverable(), [], 'nothing past a gap');
  conv.add(message(5));
  conv.add(message(6));
  assert.equal(conv.missing(), null);
  assert.deepEqual(conv.takeDeliverable().map((m) => m.message.seq), [5, 6, 7]);
});

test('the ack is the highest contiguous seq rendered or skipped, forward only', () => {
  const conv = new Conversation('d:1:2', 0);
  for (const seq of [1, 2, 3, 4]) conv.add(message(seq));
  assert.equal(conv.markDone(2), false, 'seq 1 is not rendered yet');
  assert.equal(conv.base, 0);
  assert.equal(conv.markDone(1), true);
  assert.equal(conv.base, 2);
  assert.equal(conv.markDone(4), false);
  assert.equal(conv.markDone(3), true, 'a skipped (unrenderable) message counts as done');
  assert.equal(conv.base, 4);
  assert.equal(conv.markDone(2), false, 'never backwards');
  assert.equal(conv.markDone(9), false, 'not a message it holds');
});

test('duplicates merge by seq; a recall is an update with the placeholder', () => {
  const conv = new Conversation('d:1:2', 0);
  assert.equal(conv.add(message(1)), 'new');
  assert.equal(conv.add(message(1)), 'same');
  assert.equal(conv.add(message(1, { recalled: true, content: RECALLED_PLACEHOLDER })), 'updated');
  assert.equal(conv.recall(1), null, 'already recalled');
  conv.add(message(2));
  assert.equal(conv.recall(2).content, RECALLED_PLACEHOLDER);
});

test('a first screen starts the tail past the history below it; a cursor ahead realigns to the latest', () => {
  const conv = new Conversation('d:1:2', 0);
  assert.equal(conv.anchored, false);
  conv.startTailAfter(80);
  for (let seq = 81; seq <= 100; seq += 1) conv.add(message(seq));
  assert.equal(conv.tailEnd, 100);
  assert.equal(conv.base, 80);
  assert.equal(conv.takeDeliverable().length, 20);

  const ahead = new Conversation('d:1:2', 500);
  ahead.sawLatest(3);
  assert.equal(ahead.ahead(), true);
  ahead.realign(3);
  assert.equal(ahead.base, 3);
  assert.equal(ahead.ahead(), false);
});

test('each message is handed over once, whatever realigns', () => {
  const conv = new Conversation('d:1:2', 0);
  conv.add(message(1));
  assert.equal(conv.takeDeliverable().length, 1);
  conv.realign(0);
  conv.add(message(1));
  assert.equal(conv.takeDeliverable().length, 0);
});
