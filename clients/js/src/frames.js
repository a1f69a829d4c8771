// The push stream's frames (API.md: Push stream) applied to the client's state, and the small
// pieces of list state they share with the HTTP answers.

/** @typedef {import('./conversation.js').Conversation} Conversation */
/** @typedef {import('./conversation.js').Message} Message */

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
      if (client.liveness.frame(frame)) return;
      // pong, cursor (another device's ack) and frame types added later: nothing to do
  }
}
