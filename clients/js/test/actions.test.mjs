// Message actions' state in the library: edit and reaction notices applied once, in seq order,
// only when newer than what a fetched message already shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation } from '../src/conversation.js';
import { applyNotice, stateKnownThrough, withoutActions } from '../src/actions.js';

const CONV = 'd:1:2';

/** @param {number} seq @param {object} [extra] */
function message(seq, extra = {}) {
  return { msgId: String(seq), convId: CONV, seq, senderId: '1', senderDevice: 'phone', clientMsgId: `c${seq}`,
    type: 'text', content: `m${seq}`, createTime: seq, recalled: false, ...extra };
}

/** @param {number} seq @param {string} senderId @param {object} body */
function reaction(seq, senderId, body) {
  return message(seq, { type: 'reaction', senderId, content: JSON.stringify({ seq: 1, ...body }) });
}

test('notices apply in seq order and only when newer than the state a page showed', () => {
  const conv = new Conversation(CONV);
  const fetched = message(1, { content: 'edited', edited: true, editedAt: 3, reactions: [{ emoji: '👍', count: 1, me: false }] });
  conv.add(fetched);
  stateKnownThrough(/** @type {any} */ (conv.messages.get(1)), 4); // the page's latestSeq
  const edit = message(3, { type: 'edit', content: JSON.stringify({ seq: 1, content: 'edited' }) });
  assert.equal(applyNotice(conv, edit, '2'), null, 'already in the fetched state');
  assert.equal(applyNotice(conv, reaction(4, '1', { emoji: '👍', added: true }), '2'), null);

  const mine = applyNotice(conv, reaction(5, '2', { emoji: '👍', added: true }), '2');
  assert.deepEqual(mine?.reactions, [{ emoji: '👍', count: 2, me: true }]);
  assert.equal(applyNotice(conv, reaction(5, '2', { emoji: '👍', added: true }), '2'), null, 'a repeat counts once');
  applyNotice(conv, reaction(6, '2', { emoji: '👍', added: false }), '2');
  const later = applyNotice(conv, message(7, { type: 'edit', content: JSON.stringify({ seq: 1, content: 'again' }) }), '2');
  assert.equal(later?.content, 'again');
  assert.equal(later?.editedAt, 7);
  assert.deepEqual(later?.reactions, [{ emoji: '👍', count: 1, me: false }]);
  applyNotice(conv, reaction(8, '1', { emoji: '👍', added: false }), '2');
  assert.equal(conv.messages.get(1)?.reactions, undefined, 'no reactions left');
});

test('a recalled message loses its edits and reactions, and takes no more', () => {
  const conv = new Conversation(CONV);
  conv.add(message(1, { edited: true, editedAt: 2, reactions: [{ emoji: '🎉', count: 1, me: true }] }));
  const recalled = withoutActions(/** @type {any} */ (conv.recall(1)));
  conv.messages.set(1, recalled);
  assert.equal(recalled.edited, undefined);
  assert.equal(recalled.reactions, undefined);
  assert.equal(recalled.content, '[recalled]');
  assert.equal(applyNotice(conv, reaction(4, '2', { emoji: '🎉', added: true }), '2'), null);
  assert.equal(applyNotice(conv, message(5, { type: 'edit', recalled: true, content: '[recalled]' }), '2'), null);
});
