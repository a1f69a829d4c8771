// Message actions against the real stack: edits, reactions, replies and mentions are events in the
// conversation's log with seqs of their own, so a device that was offline gets them on reconnect
// through the same handshake and cursor, in seq order, once; pages show each message's current
// state; a recall keeps its meaning.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedApp } from '../lib/app.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { faultyWebSocket, libraryClient, range, seqsOf } from '../lib/clients.mjs';

const app = sharedApp('long-reply-budget', 'message-actions');
const open = [];
before(() => app.start(), { timeout: 240_000 });
after(async () => {
  await Promise.all(open.map((client) => client.close()));
  await app.stop();
});

function client(userId, deviceId, options = {}) {
  const made = libraryClient(app, userId, deviceId, options);
  open.push(made);
  return made;
}

/** The status and JSON body of a request, whatever the status. */
async function answer(caller, method, path, body) {
  const response = await fetch(app.baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${caller.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const messagePath = (conv, seq) => `/v1/conversations/${conv}/messages/${seq}`;
const reactionPath = (conv, seq, emoji) => `${messagePath(conv, seq)}/reactions/${encodeURIComponent(emoji)}`;

test('an edit, a reaction and a reply made while a device was offline reach it on reconnect, in seq order, once', async () => {
  const conv = 'd:801:802';
  const alice = client(801, 'phone');
  await alice.connect();
  const first = await alice.send(conv, 'helo').committed;
  assert.equal(first.seq, 1);

  const network = faultyWebSocket();
  const bob = client(802, 'laptop', { WebSocket: network.WebSocket, backoff: { baseMs: 200, capMs: 1000 } });
  const updates = [];
  bob.on('updated', ({ convId, message }) => { if (convId === conv && message) updates.push(message); });
  await bob.connect();
  await bob.caughtUp();
  await eventually(async () => seqsOf(bob, conv), (seqs) => seqs.length === 1, { what: 'seq 1 on the laptop' });

  network.refuse = true;
  network.cut();
  const edit = await alice.edit(conv, 1, 'hello');
  const reaction = await alice.react(conv, 1, '👍');
  const reply = await alice.reply(conv, 1, 'see above, @802', { mentions: ['802'] }).committed;
  assert.deepEqual([edit.seq, reaction.seq, reply.seq], [2, 3, 4]);
  assert.equal(edit.type, 'edit');
  assert.equal(reaction.type, 'reaction');
  network.refuse = false;

  await eventually(async () => seqsOf(bob, conv), (seqs) => seqs.length === 4, { what: 'the three actions on the laptop', timeoutMs: 60_000 });
  await bob.caughtUp();
  assert.deepEqual(seqsOf(bob, conv), range(1, 4), 'in seq order, each once');
  assert.ok(bob.received.filter((e) => e.convId === conv && e.seq > 1).every((e) => e.source !== 'push'),
    'caught up after the reconnect, not pushed');

  const edited = bob.conversation(conv).messages.get(1);
  assert.equal(edited.content, 'hello');
  assert.equal(edited.edited, true);
  assert.equal(edited.editedAt, edit.createTime);
  assert.deepEqual(edited.reactions, [{ emoji: '👍', count: 1, me: false }]);
  assert.deepEqual(updates.map((m) => [m.seq, m.content, m.reactions?.length ?? 0]), [[1, 'hello', 0], [1, 'hello', 1]]);
  const replied = bob.conversation(conv).messages.get(4);
  assert.deepEqual(replied.replyTo, { seq: 1, senderId: '801', type: 'text', quote: 'hello' });
  assert.deepEqual(replied.mentions, ['802']);

  // A page shows the current state, the caller's own reaction marked.
  await bob.react(conv, 1, '👍');
  const page = await new Caller(app, 801, 'phone').page(conv, { after: 0 });
  const [one] = page.messages;
  assert.equal(one.content, 'hello');
  assert.equal(one.edited, true);
  assert.deepEqual(one.reactions, [{ emoji: '👍', count: 2, me: true }]);
  assert.equal(page.messages.find((m) => m.seq === 2).content, JSON.stringify({ seq: 1, content: 'hello' }));
  assert.deepEqual(bob.conversation(conv).messages.get(1).reactions, [{ emoji: '👍', count: 2, me: true }]);

  // The mention counts beside unread in Bob's list until he reads.
  const bobsList = async () => (await new Caller(app, 802, 'laptop').call('GET', '/v1/conversations')).conversations
    .find((entry) => entry.convId === conv);
  assert.equal((await bobsList()).mentions, 1);
  await bob.refreshList();
  assert.equal(bob.list().find((entry) => entry.convId === conv).mentions, 1);
  await bob.markRead(conv);
  await eventually(bobsList, (entry) => entry.mentions === 0 && entry.unread === 0, { what: 'the mention read' });
});

test('only the sender edits; one reaction per user and emoji, removable; a recall undoes edits and reactions', async () => {
  const conv = 'd:811:812';
  const alice = new Caller(app, 811, 'phone');
  const bob = new Caller(app, 812, 'phone');
  await alice.send(conv, 'draft');

  assert.equal((await answer(bob, 'POST', `${messagePath(conv, 1)}/edit`, { content: 'mine now' })).body.error.code, 'not_sender');
  assert.equal((await answer(alice, 'POST', `${messagePath(conv, 9)}/edit`, { content: 'x' })).status, 404);
  assert.equal((await answer(new Caller(app, 813, 'phone'), 'PUT', reactionPath(conv, 1, '👍'))).status, 403);
  assert.equal((await answer(bob, 'PUT', reactionPath(conv, 1, 'two words'))).status, 400);

  const added = await answer(bob, 'PUT', reactionPath(conv, 1, '🎉'));
  assert.equal(added.status, 200);
  assert.equal(added.body.duplicate, false);
  const again = await answer(bob, 'PUT', reactionPath(conv, 1, '🎉'));
  assert.deepEqual([again.body.duplicate, again.body.notice.seq], [true, added.body.notice.seq], 'one per user and emoji');
  assert.equal((await answer(bob, 'PUT', reactionPath(conv, added.body.notice.seq, '🎉'))).body.error.code, 'not_actionable');
  assert.equal((await answer(bob, 'DELETE', reactionPath(conv, 1, '🎉'))).status, 200);
  assert.equal((await answer(bob, 'DELETE', reactionPath(conv, 1, '🎉'))).body.error.code, 'no_such_reaction');
  await answer(bob, 'PUT', reactionPath(conv, 1, '👀'));
  const editNotice = (await answer(alice, 'POST', `${messagePath(conv, 1)}/edit`, { content: 'final' })).body.notice;

  await alice.call('POST', `${messagePath(conv, 1)}/recall`);
  const page = await bob.page(conv, { after: 0 });
  const recalled = page.messages[0];
  assert.deepEqual([recalled.recalled, recalled.content, recalled.edited, recalled.reactions], [true, '[recalled]', undefined, undefined]);
  assert.equal(page.messages.find((m) => m.seq === editNotice.seq).content, '[recalled]', 'its edits vanish with it');
  assert.equal((await answer(alice, 'POST', `${messagePath(conv, 1)}/edit`, { content: 'back' })).body.error.code, 'recalled');
  assert.equal((await answer(bob, 'PUT', reactionPath(conv, 1, '👍'))).body.error.code, 'recalled');
});
