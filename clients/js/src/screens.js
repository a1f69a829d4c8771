// The first screens a handshake carries (issue 40; docs/api.md, "First screens in the handshake"):
// a handshake entry may hold `messages`, the newest (up to 20) this device lacks, and `limited`,
// whether older unseen ones remain below them. Taken in, they leave nothing to fetch for a
// conversation a few messages behind; a conversation further behind starts its live tail at the
// screen (as a first screen does, R16) and keeps the unseen stretch below it as a hole that
// `loadOlder` pages back through, 50 at a time, newest first.

/** @typedef {import('./conversation.js').Conversation} Conversation */

/**
 * Applies an entry's first screen, if it carries one; `ingest` takes the messages in.
 * @param {Conversation} conv the entry's conversation, the entry's positions already applied
 * @param {any} entry a `sync` frame's or `POST /v1/sync`'s conversation
 * @param {(conv: Conversation, messages: any[]) => void} ingest
 * @returns {boolean} whether the entry carried a screen
 */
export function takeScreen(conv, entry, ingest) {
  if (!Array.isArray(entry.messages)) return false; // past the answer's bounds: fetched as before
  const messages = entry.messages;
  const first = messages.length > 0 ? messages[0].seq : entry.latestSeq + 1;
  if (entry.limited && conv.tailEnd < first - 1) {
    // Too far behind to carry it all: the unseen stretch below the screen is history, paged on demand.
    if (conv.anchored && conv.messages.size > 0) conv.hole = { after: conv.tailEnd, before: first };
    conv.startTailAfter(first - 1);
    conv.hasOlder = true;
  } else if (!conv.anchored) {
    // Everything this device lacks is here: the tail starts where the server compared from.
    conv.startTailAfter(Math.max(0, first - 1));
    if (conv.hasOlder === undefined) conv.hasOlder = first > 1;
  }
  ingest(conv, messages);
  return true;
}

/**
 * What `loadOlder` asks for next when the conversation has a hole of unseen messages (left by a
 * limited screen): the page just below the hole's top; null when it has none.
 * @param {Conversation} conv
 * @returns {number | null} the `before` of the next page
 */
export function holeBefore(conv) {
  return conv.hole ? conv.hole.before : null;
}

/**
 * A page below the hole's top came: the hole shrinks to what is still unseen, or closes.
 * @param {Conversation} conv
 * @param {{messages: any[], hasMore: boolean}} page
 */
export function narrowHole(conv, page) {
  const hole = conv.hole;
  if (!hole) return;
  const lowest = page.messages.length > 0 ? page.messages[0].seq : hole.after + 1;
  if (lowest <= hole.after + 1 || !page.hasMore) conv.hole = null;
  else conv.hole = { after: hole.after, before: lowest };
}
