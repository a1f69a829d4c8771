// The client: one user's device, connected. It owns the protocol half that API.md leaves to
// clients (the seeds' pitfalls): handshake on every connect, gap detection and range fill, first
// screens and history pages, ack after render, lost-ack correction, skip-and-report, sends by
// clientMsgId. The app owns the UI: it listens to events and reports what it rendered.
import { attachmentMessageType, attachmentUrl, uploadAttachment } from './attachments.js';
import { Api, expiresSoon, parseToken } from './api.js';
import { actionPath } from './actions.js';
import { Connection } from './connection.js';
import { Conversation } from './conversation.js';
import { Emitter, once } from './emitter.js';
import { Liveness } from './liveness.js';
import { LocalCopy } from './local-copy.js';
import { Outbox } from './outbox.js';
import { Puller } from './puller.js';
import { Reporter } from './reporter.js';
import { MemoryStore } from './store.js';
import { applyFrame, applySyncEntry } from './frames.js';
import { Handshake } from './handshake.js';
import { ingest } from './intake.js';
import { listOf, localUnread, mergeListEntry, summary } from './list.js';

/** @typedef {import('./conversation.js').Message} Message */
/** @typedef {import('./connection.js').ConnectionState} ConnectionState */
/** @typedef {import('./outbox.js').PendingSend} PendingSend */
/** @typedef {ReturnType<typeof summary>} ConversationSummary */

/** @typedef {import('./client-options.js').ClientEvents} ClientEvents */
/** @typedef {import('./client-options.js').ClientOptions} ClientOptions */

/** @extends {Emitter<ClientEvents>} */
export class SeqsyncClient extends Emitter {
  /** @param {ClientOptions} options */
  constructor(options) {
    super();
    const { baseUrl, token, store = new MemoryStore(), handshake = 'stream' } = options;
    this.me = parseToken(token);
    this.store = store;
    this.handshake = new Handshake(this, handshake);
    this.draftDelayMs = options.draftDelayMs ?? 300;
    this.api = new Api({ baseUrl, token, getToken: options.getToken, fetch: options.fetch });
    /** @type {Map<string, Conversation>} */
    this.conversations = new Map();
    this.reporter = new Reporter(this.api, store, {
      intervalMs: options.ackIntervalMs, telemetry: options.telemetry, onError: (error) => this.failed(error, 'report'),
    });
    this.outbox = new Outbox(this.api, store, {
      committed: (message) => this.ingest(this.conversation(message.convId), [message], 'sent'),
      changed: (pending) => this.emit('updated', { convId: pending.convId, pending }),
    });
    this.puller = new Puller(this.api, {
      ingest: (conv, messages, source, watermark) => this.ingest(conv, messages, source, watermark),
      failed: (conv, error) => this.failed(error, `pull ${conv.convId}`),
      realigned: (conv) => { this.store.saveCursor(conv.convId, conv.base).then(() => this.reporter.ackMoved(conv)); },
    }, { baseMs: 500, capMs: 10_000, ...options.backoff });
    const streamUrl = new URL('/v1/stream', this.api.baseUrl.replace(/^http/, 'ws'));
    this.connection = new Connection({
      url: () => {
        const withToken = () => {
          streamUrl.searchParams.set('access_token', this.api.token);
          return streamUrl.toString();
        };
        return expiresSoon(this.api.token) && options.getToken ? this.api.renew(this.api.token).then(withToken) : withToken();
      },
      onTokenEnded: options.getToken ? () => this.api.renew(streamUrl.searchParams.get('access_token') ?? '') : undefined,
      WebSocket: options.WebSocket ?? globalThis.WebSocket, backoff: options.backoff,
      pingIntervalMs: options.pingIntervalMs,
      onOpen: () => this.opened(),
      onFrame: (frame) => this.frame(frame),
      onState: (state, detail) => this.emit('state', { state, ...detail }),
    });
    /** @type {Map<string, ReturnType<typeof setTimeout>>} */
    this.draftTimers = new Map();
    this.local = new LocalCopy(this, store, { retentionDays: options.retentionDays });
    this.loaded = false;
    this.liveness = new Liveness(this);
  }

  /** @returns {ConnectionState} */
  get state() { return this.connection.state; }

  /** Loads the stored cursors and the unsent messages, then connects (and keeps reconnecting until close()). */
  async connect() {
    if (!this.loaded) {
      for (const [convId, seq] of Object.entries(await this.store.loadCursors())) {
        if (!this.conversations.has(convId)) this.conversations.set(convId, new Conversation(convId, seq));
      }
      await this.local.restore().catch((error) => this.failed(error, 'local store'));
      this.loaded = true;
    }
    this.connection.start();
    await this.outbox.restore();
  }

  /** Stops: no more reconnects, timers or requests (pending sends stay in the store). */
  async close() {
    this.connection.close();
    this.puller.stop();
    this.outbox.stop();
    for (const timer of this.draftTimers.values()) clearTimeout(timer);
    this.liveness.stop();
    this.reporter.stop();
    await this.local.flush();
    await this.reporter.flush(); // one last try of what is pending (the store has the cursors anyway)
  }

  /**
   * Signs this device out (with `allDevices`, every device of the user): its tokens are refused from
   * then on, everywhere. Stops the client first (pending acks are sent), and afterwards forgets what
   * the store holds for the device: cursors and unsent messages.
   * @param {{allDevices?: boolean}} [options]
   */
  async signOut({ allDevices = false } = {}) {
    await this.close();
    try {
      await this.api.call('POST', '/v1/sign-out', { body: allDevices ? { allDevices: true } : {}, kind: 'sign-out' });
    } finally {
      await this.store.clear?.(); // signed out or not, nothing of the device stays here
    }
  }

  /** Resolves once the connection is live and nothing is being caught up or filled. */
  async caughtUp() {
    while (this.state !== 'live' || this.puller.busy) {
      if (this.state === 'closed') throw new Error('closed');
      await (this.state === 'live' ? this.puller.idle() : once(this, 'state'));
    }
  }

  /**
   * Tells the conversation's other members this user is typing (call it on every keystroke: at most
   * one frame per 2.5 s goes out), or stopped (`active` false: after a send, or a cleared input).
   * @param {string} convId @param {boolean} [active]
   */
  typing(convId, active = true) {
    this.liveness.typing(convId, active);
  }

  /**
   * Watches these users' presence (replacing the users watched before): `presence` events now and on
   * every change; resolves with their presence now.
   * @param {string[]} users @returns {Promise<import('./liveness.js').Presence[]>}
   */
  presence(users) {
    return this.liveness.watch(users);
  }

  /** Says this device is hidden (in the background) or in front again: a user all of whose devices are hidden is `away`. @param {boolean} hidden */
  setVisibility(hidden) {
    this.liveness.setVisibility(hidden);
  }

  /** Loads every member's delivered and seen positions in the conversation (then kept current by the stream). @param {string} convId */
  loadReceipts(convId) {
    return this.liveness.load(convId);
  }

  /**
   * The ticks of a message: of the members other than its sender, how many got it on a device and how many read it.
   * @param {string} convId @param {number} seq @param {string} senderId
   * @returns {import('./liveness.js').MessageReceipts}
   */
  messageReceipts(convId, seq, senderId) {
    return this.liveness.messageReceipts(convId, seq, senderId);
  }

  /** @param {string} convId @returns {Conversation} */
  conversation(convId) {
    let conv = this.conversations.get(convId);
    if (!conv) this.conversations.set(convId, (conv = new Conversation(convId)));
    return conv;
  }

  /** The conversation list as this client knows it, most recently active first (R20). */
  list() {
    return listOf(this.conversations.values());
  }

  /** Fetches the conversation list (every page) and merges it in. */
  async refreshList() {
    let cursor;
    do {
      const page = await this.api.call('GET', '/v1/conversations', { kind: 'list', query: { limit: 100, cursor } });
      for (const entry of page.conversations) mergeListEntry(this.conversation(entry.convId), entry);
      cursor = page.next ?? undefined;
    } while (cursor);
    this.listChanged();
  }

  /**
   * Opens a conversation (R14, R16): its activation, at once an ack the server lost sent again,
   * and the first screen when none is held.
   * @param {string} convId
   */
  async open(convId) {
    const conv = this.conversation(convId);
    await this.local.show(conv).catch((error) => this.failed(error, 'local store')); // at once, also offline
    const activation = await this.api.call('GET', `/v1/conversations/${encodeURIComponent(convId)}`, { kind: 'activation' });
    applySyncEntry(conv, activation);
    Object.assign(conv, { draft: activation.draft, kind: activation.kind, members: activation.members ?? conv.members });
    if (activation.name) conv.name = activation.name;
    if (conv.base > activation.deviceCursor && !conv.ahead()) await this.reporter.resend(conv); // our ack never arrived (R14)
    if (conv.hasOlder === undefined) await this.puller.firstScreen(conv);
    if (conv.missing() || conv.ahead()) await this.puller.pull(conv, 'catchup');
    this.listChanged();
    return summary(conv);
  }

  /**
   * Loads the page of 50 before the oldest message held (R16).
   * @param {string} convId
   * @returns {Promise<number>} how many older messages came (0: the beginning)
   */
  async loadOlder(convId) {
    const conv = this.conversation(convId);
    return (await this.local.older(conv).catch(() => 0)) || this.puller.older(conv);
  }

  /**
   * Deletes this device's local copy of the messages of one conversation (or of all); they come
   * again from the server when opened. Cursors, the list, drafts and the outbox stay.
   * @param {string} [convId]
   */
  clearLocalMessages(convId) {
    return this.local.clear(convId);
  }

  /** @param {string} convId @returns {Message[]} the messages held, by seq */
  messages(convId) {
    return this.conversation(convId).sorted();
  }

  /**
   * The app rendered these messages: they count for the ack (R12) and are reported (R24).
   * @param {string} convId
   * @param {number | number[]} seqs
   */
  rendered(convId, seqs) {
    const conv = this.conversation(convId);
    const now = Date.now();
    let moved = false;
    for (const seq of [seqs].flat()) {
      const message = conv.messages.get(seq);
      const reportable = message && seq > conv.base && message.senderId !== this.me.userId;
      moved = conv.markDone(seq) || moved;
      if (reportable) {
        this.reporter.reportRendered({ msgId: message.msgId, convId, seq, sendTime: message.createTime, renderTime: now });
      }
    }
    if (moved) this.reporter.ackMoved(conv);
  }

  /**
   * The app could not render this message (R17): it is skipped, reported, and the ack moves past it.
   * @param {string} convId
   * @param {number} seq
   * @param {string} reason a short cause, kept by the server for investigation
   */
  renderFailed(convId, seq, reason) {
    const conv = this.conversation(convId);
    const message = conv.messages.get(seq);
    if (message) this.reporter.reportFailure({ msgId: message.msgId, convId, seq, reason: String(reason).slice(0, 500) || 'render failed' });
    if (conv.markDone(seq)) this.reporter.ackMoved(conv);
  }

  /**
   * Sends a message; it is pending until its committed seq arrives (`committed` resolves then).
   * @param {string} convId
   * @param {string} content
   * @param {string} [type]
   * @param {{attachment?: import('./attachments.js').Attachment, replyTo?: number, mentions?: string[]}} [extras]
   *   an uploaded object (from uploadAttachment); message actions: the seq it replies to, the user ids it mentions
   * @returns {PendingSend}
   */
  send(convId, content, type = 'text', { attachment, replyTo, mentions } = {}) {
    const conv = this.conversation(convId);
    conv.listed = true;
    return this.outbox.send(convId, content, type, { attachment, replyTo, mentions });
  }

  /**
   * Message actions: sends a reply to the message at `seq` (shown with a quote of it).
   * @param {string} convId
   * @param {number} seq
   * @param {string} content
   * @param {{type?: string, mentions?: string[]}} [options]
   * @returns {PendingSend}
   */
  reply(convId, seq, content, { type = 'text', mentions } = {}) {
    return this.send(convId, content, type, { replyTo: seq, mentions });
  }

  /**
   * Message actions: edits one of our messages (within the server's edit window); resolves with
   * the edit notice. The message is then `edited`, here at once and on every device in seq order.
   * @param {string} convId
   * @param {number} seq
   * @param {string} content
   */
  async edit(convId, seq, content) {
    return this.action('POST', actionPath(convId, seq), 'edit', { content });
  }

  /**
   * Message actions: adds our reaction `emoji` to the message at `seq` (one per emoji; again is a no-op).
   * @param {string} convId
   * @param {number} seq
   * @param {string} emoji
   */
  async react(convId, seq, emoji) {
    return this.action('PUT', actionPath(convId, seq, emoji), 'react');
  }

  /**
   * Message actions: removes our reaction `emoji` from the message at `seq`.
   * @param {string} convId
   * @param {number} seq
   * @param {string} emoji
   */
  async unreact(convId, seq, emoji) {
    return this.action('DELETE', actionPath(convId, seq, emoji), 'unreact');
  }

  /**
   * @private
   * @param {string} method @param {string} path @param {string} kind @param {unknown} [body]
   * @returns {Promise<Message | undefined>} the notice
   */
  async action(method, path, kind, body) {
    const answer = await this.api.call(method, path, { kind, body, repeatable: method !== 'POST' });
    const convId = decodeURIComponent(path.split('/')[3]);
    if (answer?.notice) this.ingest(this.conversation(convId), [answer.notice], 'sent');
    return answer?.notice;
  }

  /**
   * Uploads bytes to the object store (POST /v1/uploads, then a PUT to its presigned URL); send the
   * result with sendAttachment.
   * @param {Blob | ArrayBuffer} bytes
   * @param {{name: string, type: string, width?: number, height?: number}} what
   */
  uploadAttachment(bytes, what) {
    return uploadAttachment(this.api, bytes, what);
  }

  /**
   * Sends an uploaded attachment as an image or file message, with an optional caption.
   * @param {string} convId
   * @param {import('./attachments.js').Attachment} attachment
   * @param {string} [caption]
   * @returns {PendingSend}
   */
  sendAttachment(convId, attachment, caption = '') {
    return this.send(convId, caption, attachmentMessageType(attachment), { attachment });
  }

  /**
   * A download URL of the attachment of the message at `seq`, valid until its `expiresAt`.
   * @param {string} convId
   * @param {number} seq
   */
  attachmentUrl(convId, seq) {
    return attachmentUrl(this.api, convId, seq);
  }

  /** @param {string} [convId] @returns {PendingSend[]} sends not committed yet */
  pending(convId) {
    return this.outbox.pending().filter((item) => convId === undefined || item.convId === convId);
  }

  /**
   * Recalls one of our messages (R6); resolves with the recall notice.
   * @param {string} convId
   * @param {number} seq
   */
  async recall(convId, seq) {
    const answer = await this.api.call('POST', `/v1/conversations/${encodeURIComponent(convId)}/messages/${seq}/recall`, { kind: 'recall' });
    const conv = this.conversation(convId);
    if (answer?.notice) this.ingest(conv, [answer.notice], 'sent');
    return answer?.notice;
  }

  /**
   * The user read up to `seq` (default: the latest held), for all their devices (R18).
   * @param {string} convId
   * @param {number} [seq]
   */
  async markRead(convId, seq) {
    const conv = this.conversation(convId);
    const upTo = seq ?? conv.latestSeq;
    if (upTo <= conv.readSeq) return;
    conv.readSeq = upTo;
    conv.unread = this.localUnread(conv) ?? conv.unread;
    if (upTo >= conv.latestSeq) conv.mentions = 0;
    this.listChanged();
    await this.api.call('POST', '/v1/reads', { kind: 'read', body: { convId, seq: upTo } });
  }

  /**
   * The draft of a conversation, saved after a short pause in typing and synced to the user's other devices (R21).
   * @param {string} convId
   * @param {string} text
   */
  setDraft(convId, text) {
    this.conversation(convId).draft = text;
    this.local.draft(convId, text, false);
    clearTimeout(this.draftTimers.get(convId));
    return new Promise((resolve) => {
      this.draftTimers.set(convId, setTimeout(() => {
        this.draftTimers.delete(convId);
        this.api.call('PUT', `/v1/conversations/${encodeURIComponent(convId)}/draft`, { kind: 'draft', body: { text } })
          .then(() => this.local.draft(convId, text, true))
          .catch((error) => this.failed(error, 'draft')).finally(() => resolve(undefined));
      }, this.draftDelayMs));
    });
  }

  /**
   * Creates a group with the caller and `members` (user ids); resolves with its convId.
   * @param {string} name
   * @param {string[]} members
   */
  async createGroup(name, members) {
    const created = await this.api.call('POST', '/v1/groups', { kind: 'group', body: { name, members }, repeatable: false });
    const conv = this.conversation(created.convId);
    Object.assign(conv, { name: created.name ?? name, kind: 'group', listed: true });
    if (created.notice) this.ingest(conv, [created.notice], 'sent');
    return created.convId;
  }

  /**
   * @param {string} convId
   * @param {{add?: string[], remove?: string[]}} change
   */
  changeMembers(convId, { add = [], remove = [] }) {
    return this.api.call('POST', `/v1/conversations/${encodeURIComponent(convId)}/members`, { kind: 'members', body: { add, remove } });
  }

  /** @private */
  opened() {
    return this.handshake.opened();
  }

  /** @private @param {any} frame */
  frame(frame) {
    if (frame.type === 'sync') this.handshake.frame(frame);
    else applyFrame(this, frame);
  }

  /**
   * Takes messages in from anywhere; hands the app new ones (the live tail in seq order), merges
   * duplicates by seq and msgId, settles pending sends, fills a gap at once (R9).
   * @param {Conversation} conv
   * @param {Message[]} messages
   * @param {import('./conversation.js').MessageSource} source
   * @param {number} [watermark] the latestSeq of the page they came in, as of which their state is
   */
  ingest(conv, messages, source, watermark = conv.latestSeq) {
    ingest(this, conv, messages, source, watermark);
  }

  /** @param {Conversation} conv @returns {number | null} unread from the messages held, null when some are missing */
  localUnread(conv) {
    return localUnread(conv, this.me.userId);
  }

  /** Tells listeners the list changed. */
  listChanged() {
    this.emit('list', { conversations: this.list() });
  }

  /** @param {unknown} error @param {string} during */
  failed(error, during) {
    this.emit('error', { error, during });
  }
}
