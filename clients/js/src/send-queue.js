// One conversation's sends, one at a time, in the order they were made. The commands of a
// conversation share one Kafka partition and the sequencer numbers them in partition order, so a
// device's messages are committed in the order it made them only if each enters the topic after
// the one before: the next send goes out once the previous one was durably accepted (a 200, a 202,
// a duplicate) or refused for good. A send whose outcome is unknown is retried at the head.
import { fullJitter } from './backoff.js';

/** @typedef {import('./outbox.js').PendingSend} PendingSend */
/** @typedef {'accepted' | 'refused' | 'unknown'} SendOutcome */

export class SendQueue {
  /**
   * @param {object} outbox
   * @param {Promise<void>} outbox.loaded sends wait until the outbox of an earlier run is restored ahead of them
   * @param {(item: PendingSend, followed: boolean) => Promise<SendOutcome>} outbox.post one try of a send; `followed`:
   *   others wait behind it
   * @param {() => boolean} outbox.stopped
   * @param {{baseMs: number, capMs: number}} backoff between tries of a head whose outcome is unknown
   */
  constructor(outbox, backoff) {
    this.outbox = outbox;
    this.backoff = backoff;
    /** @type {PendingSend[]} the head first */
    this.waiting = [];
    this.running = false;
    /** @type {(() => void) | null} ends the back-off before the head's next try */
    this.wake = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  /** @param {PendingSend} item made after every send already queued */
  push(item) {
    this.waiting.push(item);
    this.kick();
  }

  /** @param {PendingSend[]} items made by an earlier run, before any send of this one */
  restore(items) {
    this.waiting.unshift(...items);
    this.kick();
  }

  /** Runs the queue; a head waiting out a back-off is tried now (after a reconnect). */
  kick() {
    if (this.running) {
      this.wake?.();
      return;
    }
    this.running = true;
    this.run();
  }

  stop() {
    this.wake?.();
  }

  /** @private */
  async run() {
    try {
      await this.outbox.loaded;
      for (let tries = 0; this.waiting.length > 0 && !this.outbox.stopped();) {
        const head = this.waiting[0];
        // Settled meanwhile (its seq came by push or fetch: a send of an earlier run), or failed.
        if (head.status !== 'pending') {
          this.waiting.shift();
          tries = 0;
          continue;
        }
        await head.saved; // in the store before it goes, so a restart sends it again under the same clientMsgId
        if ((await this.outbox.post(head, this.waiting.length > 1)) !== 'unknown') {
          this.waiting.shift();
          tries = 0;
          continue;
        }
        // Maybe in the topic, maybe not: nothing behind it goes before the same clientMsgId was accepted.
        await this.pause(this.backoff.baseMs + fullJitter(tries, this.backoff));
        tries += 1;
      }
    } finally {
      this.running = false; // in the same step as the last look at `waiting`: a push after it starts a new run
    }
  }

  /** @private @param {number} ms */
  pause(ms) {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(this.timer);
        this.wake = null;
        resolve(undefined);
      };
      this.wake = done;
      this.timer = setTimeout(done, ms);
    });
  }
}
