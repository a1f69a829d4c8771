// The conversation list (R20): what the app shows for each conversation, the server's list pages
// merged in, and unread counts kept current from what arrives between two list fetches.

/** @typedef {import('./conversation.js').Conversation} Conversation */
/** @typedef {import('./conversation.js').Message} Message */

/** Unread counts the other users' text, image and file messages that are not recalled (docs/api.md). */
const COUNTED_TYPES = new Set(['text', 'image', 'file']);

/** @param {Message} message */
export function countsAsUnread(message) {
  return COUNTED_TYPES.has(message.type) && !message.recalled;
}

/**
 * What the app shows in a conversation list (R20).
 * @param {Conversation} conv
 */
export function summary(conv) {
  return {
    convId: conv.convId,
    kind: conv.kind,
    name: conv.name,
    latestSeq: conv.latestSeq,
    lastMessage: conv.lastMessage,
    readSeq: conv.readSeq,
    unread: conv.unread,
    /** message actions: how often the user is mentioned above their read position */
    mentions: conv.mentions,
    draft: conv.draft,
    updatedAt: conv.updatedAt,
    members: conv.members,
    /** the highest seq each other member has read, by user id (R19) */
    receipts: Object.fromEntries(conv.receipts),
    /** the seq this device acks: everything up to it rendered or skipped (R12) */
    ackedSeq: conv.base,
    hasOlder: conv.hasOlder,
    /** the user's list settings: no push notifications from it; kept at the top */
    muted: conv.muted,
    pinned: conv.pinned,
  };
}

/**
 * The listed conversations, most recently active first.
 * @param {Iterable<Conversation>} conversations
 */
export function listOf(conversations) {
  return [...conversations].filter((conv) => conv.listed && conv.updatedAt > 0)
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.convId < b.convId ? -1 : 1)).map(summary);
}

/**
 * One entry of `GET /v1/conversations`.
 * @param {Conversation} conv
 * @param {any} entry
 */
export function mergeListEntry(conv, entry) {
  conv.sawLatest(entry.latestSeq);
  Object.assign(conv, { readSeq: Math.max(conv.readSeq, entry.readSeq), unread: entry.unread, draft: entry.draft,
    updatedAt: Math.max(conv.updatedAt, entry.updatedAt), listed: true, muted: entry.muted ?? false,
    pinned: entry.pinned ?? false });
  if (entry.name) conv.name = entry.name;
  if (typeof entry.mentions === 'number') conv.mentions = entry.mentions;
  if (entry.lastMessage && (!conv.lastMessage || entry.lastMessage.seq >= conv.lastMessage.seq)) conv.lastMessage = entry.lastMessage;
}

/**
 * A message newer than any seen: the list's time, and the unread count (the server moves a
 * sender's own read position to their message).
 * @param {Conversation} conv
 * @param {Message} message
 * @param {string} userId who we are
 */
export function countNew(conv, message, userId) {
  conv.listed = true;
  conv.updatedAt = Math.max(conv.updatedAt, message.createTime);
  // A notice (a recall, a group's, an edit or a reaction) does not move its sender's read position.
  if (message.senderId === userId && COUNTED_TYPES.has(message.type)) {
    conv.readSeq = Math.max(conv.readSeq, message.seq);
    conv.unread = localUnread(conv, userId) ?? 0;
  } else if (message.seq > conv.readSeq && countsAsUnread(message)) {
    conv.unread += 1;
    if (message.mentions?.includes(userId)) conv.mentions += 1;
  }
}

/**
 * Unread counted from the messages held, or null when some above the read position are not held.
 * @param {Conversation} conv
 * @param {string} userId
 * @returns {number | null}
 */
export function localUnread(conv, userId) {
  let unread = 0;
  for (let seq = conv.readSeq + 1; seq <= conv.latestSeq; seq += 1) {
    const message = conv.messages.get(seq);
    if (!message) return conv.readSeq >= conv.latestSeq ? 0 : null;
    if (message.senderId !== userId && countsAsUnread(message)) unread += 1;
  }
  return unread;
}
