// Messages in from anywhere (push, pages, handshake screens, the local copy, our own sends'
// answers) go through one function, so the live tail reaches the app in seq order, once.
import { applyNotice, isActionNotice, stateKnownThrough, withoutActions } from './actions.js';
import { countNew } from './list.js';

/** @typedef {import('./conversation.js').Conversation} Conversation */
/** @typedef {import('./conversation.js').Message} Message */

/**
 * Takes messages in from anywhere; hands the app new ones (the live tail in seq order), merges
 * duplicates by seq and msgId, settles pending sends, fills a gap at once (R9).
 * @param {import('./client.js').SeqsyncClient} client
 * @param {Conversation} conv
 * @param {Message[]} messages
 * @param {import('./conversation.js').MessageSource} source
 * @param {number} [watermark] the latestSeq of the page they came in, as of which their state is
 */
export function ingest(client, conv, messages, source, watermark = conv.latestSeq) {
  const before = conv.latestSeq;
  for (const message of [...messages].sort((a, b) => a.seq - b.seq)) {
    const outcome = conv.add(message);
    client.outbox.settle(message, client.me.userId);
    if (outcome !== 'same') {
      const held = conv.messages.get(message.seq);
      if (held) stateKnownThrough(held, source === 'push' || source === 'store' ? message.seq : watermark);
    }
    if (message.type === 'recall') {
      const recalled = conv.recall(Number(message.content));
      if (recalled) {
        conv.messages.set(recalled.seq, withoutActions(recalled));
        client.emit('updated', { convId: conv.convId, message: conv.messages.get(recalled.seq) });
      }
    }
    if (isActionNotice(message)) {
      const changed = applyNotice(conv, message, client.me.userId);
      if (changed) client.emit('updated', { convId: conv.convId, message: changed });
    }
    if (outcome === 'updated') client.emit('updated', { convId: conv.convId, message: conv.messages.get(message.seq) });
    if (outcome !== 'new') continue;
    if (message.seq <= conv.delivered) {
      if (conv.hand(message.seq)) client.emit('message', { convId: conv.convId, message, source });
    }
    else conv.sources.set(message.seq, source);
    if (message.seq > before && source !== 'history' && source !== 'store') countNew(conv, message, client.me.userId);
  }
  for (const { message, source: cameBy } of conv.takeDeliverable()) {
    client.emit('message', { convId: conv.convId, message, source: cameBy });
  }
  if ((conv.missing() && source !== 'history' && source !== 'first-screen' && source !== 'store') || conv.ahead()) {
    client.puller.pull(conv, 'fill');
  }
  if (conv.latestSeq > before) client.listChanged();
}
