// Message actions: edits, reactions, replies and mentions. Each edit and reaction is a notice
// with its own seq in the conversation (type `edit` or `reaction`, its content JSON naming the
// seq it changes), so a device that was offline catches up on them with everything else, in seq
// order. A fetched message already carries its state (edited content, reactions, the message it
// replies to) as of its page's latestSeq; `stateSeq` on a held message says through which seq its
// state is known, so that a notice is applied once: only when it is newer.
import { RECALLED_PLACEHOLDER } from './conversation.js';

/** @typedef {import('./conversation.js').Message} Message */
/** @typedef {import('./conversation.js').Conversation} Conversation */

/** The types of message-action notices: messages in the seq order that change another message. */
export const ACTION_TYPES = Object.freeze(['edit', 'reaction']);

/**
 * Whether a message is a notice of an edit or a reaction (not a chat line of its own).
 * @param {Message} message
 */
export function isActionNotice(message) {
  return ACTION_TYPES.includes(message.type);
}

/**
 * Notes through which seq a message's state is known: a fetched one as of its page, a pushed new
 * one as of itself.
 * @param {Message} message
 * @param {number} watermark
 */
export function stateKnownThrough(message, watermark) {
  message.stateSeq = Math.max(message.stateSeq ?? 0, watermark, message.seq);
}

/**
 * Applies an edit or reaction notice to the message it names, when that message is held and the
 * notice is newer than its state; returns the updated message, else null.
 * @param {Conversation} conv
 * @param {Message} notice
 * @param {string} me the user id of this client
 * @returns {Message | null}
 */
export function applyNotice(conv, notice, me) {
  let body;
  try {
    body = JSON.parse(notice.content);
  } catch {
    return null; // a notice of a recalled message: its text is gone
  }
  const target = conv.messages.get(Number(body?.seq));
  if (!target || target.recalled || (target.stateSeq ?? target.seq) >= notice.seq) return null;
  const updated = notice.type === 'edit'
    ? { ...target, content: String(body.content), edited: true, editedAt: notice.createTime }
    : { ...target, reactions: react(target.reactions ?? [], String(body.emoji), body.added === true, notice.senderId === me) };
  updated.stateSeq = notice.seq;
  if (!updated.reactions?.length) delete updated.reactions;
  conv.messages.set(updated.seq, updated);
  if (conv.lastMessage?.seq === updated.seq) conv.lastMessage = updated;
  return updated;
}

/**
 * A recalled message loses its edits and reactions (they vanish with it).
 * @param {Message} message
 * @returns {Message}
 */
export function withoutActions(message) {
  const { edited, editedAt, reactions, ...rest } = message;
  return { ...rest, content: RECALLED_PLACEHOLDER };
}

/**
 * @param {Array<{emoji: string, count: number, me: boolean}>} reactions
 * @param {string} emoji
 * @param {boolean} added
 * @param {boolean} mine
 */
function react(reactions, emoji, added, mine) {
  const next = reactions.map((reaction) => ({ ...reaction }));
  let entry = next.find((reaction) => reaction.emoji === emoji);
  if (added) {
    if (!entry) next.push((entry = { emoji, count: 0, me: false }));
    entry.count += 1;
    if (mine) entry.me = true;
  } else if (entry) {
    entry.count -= 1;
    if (mine) entry.me = false;
  }
  return next.filter((reaction) => reaction.count > 0);
}

/**
 * The request paths of message actions.
 * @param {string} convId
 * @param {number} seq
 * @param {string} [emoji]
 */
export function actionPath(convId, seq, emoji) {
  const message = `/v1/conversations/${encodeURIComponent(convId)}/messages/${seq}`;
  return emoji === undefined ? `${message}/edit` : `${message}/reactions/${encodeURIComponent(emoji)}`;
}
