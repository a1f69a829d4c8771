// Typing, presence and delivered receipts (docs/api.md, "Typing and presence", "Receipts"): all of
// it ephemeral, none of it in the event log. The stream carries it both ways; after a reconnect the
// watched users and this device's visibility are told to the new socket again.

/**
 * @typedef {'online' | 'away' | 'offline' | 'unknown'} PresenceStatus
 * @typedef {{userId: string, status: PresenceStatus, lastSeen?: number}} Presence
 *   away: online, but every device of theirs is hidden; lastSeen (ms) only when offline and known;
 *   unknown: they share no conversation with you, or hide their presence
 * @typedef {{convId: string, userId: string, active: boolean}} Typing
 * @typedef {{convId: string, userId: string, seq: number}} Delivered a device of the user acked up to seq
 * @typedef {{delivered: number, seen: number, of: number}} MessageReceipts
 *   of the members other than the sender: how many got the message on a device, how many read it
 */

/** How often typing() tells the others again while the person keeps typing (the server relays one per 2 s). */
export const TYPING_RENEW_MS = 2500;

export class Liveness {
  /** @param {import('./client.js').SeqsyncClient} client */
  constructor(client) {
    this.client = client;
    /** @type {Map<string, Presence>} */
    this.presences = new Map();
    /** @type {Set<string>} */
    this.watched = new Set();
    this.hidden = false;
    /** @type {Map<string, ReturnType<typeof setTimeout>>} convId + userId: shown until */
    this.typingTimers = new Map();
    /** @type {Map<string, number>} convId: when this device last told the others */
    this.typingSent = new Map();
  }

  /** A typing, presence or delivered frame; false for any other. @param {any} frame */
  frame(frame) {
    switch (frame.type) {
      case 'typing': this.typingFrame(frame); return true;
      case 'presence': {
        /** @type {Presence} */
        const presence = { userId: frame.userId, status: frame.status };
        if (frame.lastSeen) presence.lastSeen = frame.lastSeen;
        this.presences.set(frame.userId, presence);
        this.client.emit('presence', presence);
        return true;
      }
      case 'delivered': {
        const conv = this.client.conversation(frame.convId);
        if (frame.seq <= (conv.deliveredTo.get(frame.userId) ?? 0)) return true;
        conv.deliveredTo.set(frame.userId, frame.seq);
        this.client.emit('delivered', { convId: frame.convId, userId: frame.userId, seq: frame.seq });
        return true;
      }
      default: return false;
    }
  }

  /**
   * Tells the conversation's other members that this user is typing (or stopped: `active` false).
   * Call it on every keystroke: it sends at most one frame per TYPING_RENEW_MS.
   * @param {string} convId @param {boolean} active
   */
  typing(convId, active) {
    const last = this.typingSent.get(convId);
    const now = Date.now();
    if (active && last !== undefined && now - last < TYPING_RENEW_MS) return;
    if (!active && last === undefined) return;
    if (active) this.typingSent.set(convId, now);
    else this.typingSent.delete(convId);
    this.client.connection.send({ type: 'typing', convId, active });
  }

  /**
   * Watches these users' presence (in place of those watched before): a `presence` event for each
   * now, and on every change. Resolves with their presence as the server tells it (GET /v1/presence).
   * @param {string[]} users @returns {Promise<Presence[]>}
   */
  async watch(users) {
    this.watched = new Set(users);
    this.client.connection.send({ type: 'presence', users });
    if (users.length === 0) return [];
    const answer = /** @type {{presence: Presence[]}} */ (await this.client.api.call('GET', '/v1/presence',
      { query: { users: users.join(',') }, kind: 'presence' }));
    for (const presence of answer.presence) this.presences.set(presence.userId, presence);
    return answer.presence;
  }

  /** This device is in the background (hidden) or in front again. @param {boolean} hidden */
  setVisibility(hidden) {
    this.hidden = hidden;
    this.client.connection.send({ type: 'visibility', hidden });
  }

  /** A new socket: it is told what the last one was. */
  reconnected() {
    if (this.hidden) this.client.connection.send({ type: 'visibility', hidden: true });
    if (this.watched.size > 0) this.client.connection.send({ type: 'presence', users: [...this.watched] });
  }

  /**
   * Every member's delivered and seen positions, from the server (GET /v1/conversations/{convId}/receipts):
   * merged into the conversation, for messageReceipts.
   * @param {string} convId
   */
  async load(convId) {
    const answer = /** @type {{receipts: {userId: string, delivered: number, seen: number}[]}} */ (
      await this.client.api.call('GET', `/v1/conversations/${encodeURIComponent(convId)}/receipts`, { kind: 'receipts' }));
    const conv = this.client.conversation(convId);
    conv.receiptMembers = answer.receipts.map((receipt) => receipt.userId);
    for (const { userId, delivered, seen } of answer.receipts) {
      if (userId === this.client.me.userId) continue;
      conv.deliveredTo.set(userId, Math.max(conv.deliveredTo.get(userId) ?? 0, delivered, seen));
      conv.receipts.set(userId, Math.max(conv.receipts.get(userId) ?? 0, seen));
    }
  }

  /**
   * The ticks of a message: of the members other than its sender, how many got it on a device and
   * how many read it (a read is a delivery too).
   * @param {string} convId @param {number} seq @param {string} senderId
   * @returns {MessageReceipts}
   */
  messageReceipts(convId, seq, senderId) {
    const conv = this.client.conversation(convId);
    const members = new Set([...(conv.receiptMembers ?? conv.members ?? []), ...conv.deliveredTo.keys(), ...conv.receipts.keys()]);
    members.delete(senderId);
    let delivered = 0;
    let seen = 0;
    for (const userId of members) {
      const read = conv.receipts.get(userId) ?? 0;
      if (read >= seq) seen++;
      if (read >= seq || (conv.deliveredTo.get(userId) ?? 0) >= seq) delivered++;
    }
    return { delivered, seen, of: members.size };
  }

  /** Stops the typing timers. */
  stop() {
    for (const timer of this.typingTimers.values()) clearTimeout(timer);
    this.typingTimers.clear();
  }

  /** @private @param {any} frame */
  typingFrame(frame) {
    const key = `${frame.convId}\u0000${frame.userId}`;
    clearTimeout(this.typingTimers.get(key));
    this.typingTimers.delete(key);
    /** @type {Typing} */
    const typing = { convId: frame.convId, userId: frame.userId, active: frame.active };
    if (frame.active) {
      this.typingTimers.set(key, setTimeout(() => {
        this.typingTimers.delete(key);
        this.client.emit('typing', { ...typing, active: false });
      }, frame.timeoutMs ?? 6000));
    }
    this.client.emit('typing', typing);
  }
}
