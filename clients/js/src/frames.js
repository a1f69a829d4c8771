// The push stream's frames (API.md: Push stream) applied to the client's state, and the small
// pieces of list state they share with the HTTP answers.

/** @typedef {import('./conversation.js').Conversation} Conversation */
/** @typedef {import('./conversation.js').Message} Message */

/** Unread counts the other users' text, image and file messages that are not recalled (docs/api.md). */
const COUNTED_TYPES = new Set(['text', 'image', 'file']);

/** @param {Message} message */
export function countsAsUnread(message) {
  return COUNTED_TYPES.has(message.type) && !message.recalled;
}

/**
 * A handshake entry or an activation: the watermark, this device's server cursor, the read position.
 * @param {Conversation} conv
 * @param {{latestSeq: number, deviceCursor: number, readSeq: number, unread: number}} entry
 */
export function applySyncEntry(conv, entry) {
  conv.sawLatest(entry.latestSeq);
  conv.serverCursor = Math.max(conv.serverCursor, entry.deviceCursor);
  conv.readSeq = Math.max(conv.readSeq, entry.readSeq);
  conv.unread = entry.unread;
  // A device without a cursor of its own (a new store) catches up from the server's cursor for it.
  if (!conv.anchored && entry.deviceCursor > 0) conv.startTailAfter(entry.deviceCursor);
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
    draft: conv.draft,
    updatedAt: conv.updatedAt,
    members: conv.members,
    /** the highest seq each other member has read, by user id (R19) */
    receipts: Object.fromEntries(conv.receipts),
    /** the seq this device acks: everything up to it rendered or skipped (R12) */
    ackedSeq: conv.base,
    hasOlder: conv.hasOlder,
  };
}

/**
 * One pushed frame other than `sync`.
 * @param {import('./client.js').SeqsyncClient} client
 * @param {any} frame
 */
export function applyFrame(client, frame) {
  switch (frame.type) {
    case 'message': {
      const message = frame.message;
      client.ingest(client.conversation(message.convId), [message], 'push');
      return;
    }
    case 'read': {
      const conv = client.conversation(frame.convId);
      if (frame.userId === client.me.userId) {
        // The user read on another device (R19, R21): the badge follows.
        if (frame.seq <= conv.readSeq) return;
        conv.readSeq = frame.seq;
        const unread = client.localUnread(conv);
        if (unread === null) client.refreshList().catch((error) => client.failed(error, 'list'));
        else conv.unread = unread;
        client.listChanged();
      } else {
        if (frame.seq <= (conv.receipts.get(frame.userId) ?? 0)) return;
        conv.receipts.set(frame.userId, frame.seq);
        client.emit('receipt', { convId: frame.convId, userId: frame.userId, seq: frame.seq });
      }
      return;
    }
    case 'draft': {
      const conv = client.conversation(frame.convId);
      conv.draft = frame.text ?? null;
      client.emit('draft', { convId: frame.convId, text: conv.draft, deviceId: frame.deviceId });
      client.listChanged();
      return;
    }
    case 'recall': {
      const conv = client.conversation(frame.convId);
      if (frame.notice) client.ingest(conv, [frame.notice], 'push');
      const recalled = conv.recall(frame.seq);
      if (recalled) client.emit('updated', { convId: frame.convId, message: recalled });
      return;
    }
    case 'membership': {
      const conv = client.conversation(frame.convId);
      const removed = frame.removed ?? [];
      if (conv.members) conv.members = [...new Set([...conv.members, ...(frame.added ?? [])])].filter((id) => !removed.includes(id));
      if (removed.includes(client.me.userId)) conv.listed = false;
      client.emit('membership', { convId: frame.convId, added: frame.added ?? [], removed });
      client.listChanged();
      return;
    }
    case 'error':
      client.failed(frame.error, 'stream');
      return;
    default:
      // pong, cursor (another device's ack) and frame types added later: nothing to do
  }
}
