// The handshake on every connect (R13): the stream's first frame (the default), or POST /v1/sync
// with this device's cursors; its entries applied page by page, what they show missing pulled,
// then the connection goes live and what waited (sends, acks, liveness) goes out.
import { applySyncEntry } from './frames.js';
import { takeScreen } from './screens.js';

export class Handshake {
  /**
   * @param {import('./client.js').SeqsyncClient} client
   * @param {'http' | 'stream'} mode
   */
  constructor(client, mode) {
    this.client = client;
    this.mode = mode;
    /** Counts connections: the answers of a connection that a newer one replaced are dropped. */
    this.connections = 0;
  }

  /** The socket opened: in `http` mode the handshake is asked for now; in `stream` mode it is the first frame. */
  async opened() {
    const connection = this.connections += 1;
    if (this.mode === 'stream') return;
    /** @type {Record<string, number>} */
    const cursors = {};
    for (const conv of this.client.conversations.values()) if (conv.base > 0) cursors[conv.convId] = conv.base;
    await this.pages(connection, cursors, undefined, (entries) => this.page(entries), () => this.done());
  }

  /**
   * The stream's `sync` frame: the handshake's first page; a limited one's rest is asked over HTTP,
   * with no cursors, as the frame was computed (the device's server cursors decide).
   * @param {any} frame
   */
  frame(frame) {
    const connection = this.connections;
    const rest = frame.limited && frame.next ? frame.next : undefined;
    if (this.mode === 'stream') {
      this.page(frame.conversations ?? []);
      if (rest === undefined) this.done();
      else this.pages(connection, {}, rest, (entries) => this.page(entries), () => this.done());
      return;
    }
    // The server subscribes a socket to pushes after its upgrade, so POST /v1/sync, sent on open,
    // can be answered first: what is committed in between is neither listed nor pushed. The
    // stream's own handshake is computed after the subscription: what it shows is pulled too.
    const pull = (/** @type {any[]} */ entries) => {
      for (const entry of entries) this.catchUp(entry);
      if (entries.length > 0) this.client.listChanged();
    };
    pull(frame.conversations ?? []);
    if (rest !== undefined) this.pages(connection, {}, rest, pull, () => {});
  }

  /**
   * The handshake's pages from `next` on (the first page when undefined), asked one after another,
   * never two at once, each applied as it comes; then `done`, unless a newer connection took over
   * meanwhile. A page that fails restarts the connection, as a failed handshake does.
   * @private
   * @param {number} connection
   * @param {Record<string, number>} cursors
   * @param {string | undefined} next
   * @param {(entries: any[]) => void} apply
   * @param {() => void} done
   */
  async pages(connection, cursors, next, apply, done) {
    const { client } = this;
    try {
      do {
        const body = next === undefined ? { cursors } : { cursors, next };
        const answer = await client.api.call('POST', '/v1/sync', { kind: 'sync', body });
        if (connection !== this.connections) return;
        apply(answer.conversations);
        next = answer.limited ? answer.next : undefined;
      } while (next !== undefined);
      done();
    } catch (error) {
      client.failed(error, 'handshake');
      if (connection === this.connections) client.connection.restart();
    }
  }

  /**
   * One page of a handshake's answer: only the conversations with something new; pull those.
   * @private
   * @param {any[]} entries
   */
  page(entries) {
    for (const entry of entries) {
      const conv = this.catchUp(entry);
      if (conv.base > entry.deviceCursor && !conv.ahead()) this.client.reporter.resend(conv); // a lost ack (R14)
    }
    if (entries.length > 0) this.client.listChanged();
  }

  /** The whole handshake is in: live. @private */
  done() {
    const { client } = this;
    client.connection.live();
    client.liveness.reconnected();
    client.outbox.retryAll();
    client.reporter.flush();
  }

  /**
   * One handshake entry applied (with its first screen); what it shows missing is pulled.
   * @private
   * @param {any} entry
   */
  catchUp(entry) {
    const { client } = this;
    const conv = client.conversation(entry.convId);
    applySyncEntry(conv, entry);
    conv.listed = true;
    takeScreen(conv, entry, (held, messages) => client.ingest(held, messages, 'catchup'));
    if (conv.missing() || !conv.anchored || conv.ahead()) client.puller.pull(conv, 'catchup');
    return conv;
  }
}
