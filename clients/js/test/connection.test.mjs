// The push socket's reconnects after the server's limit close codes (docs/api.md, "Limits"): a
// socket replaced by a newer one of the same device waits the longest delay, a refused one backs
// off further each time; neither reconnects in a tight loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLOSE_REPLACED, CLOSE_TOO_MANY_SOCKETS, Connection } from '../src/connection.js';

function connection() {
  const sockets = [];
  class FakeWebSocket {
    constructor() { this.readyState = 0; sockets.push(this); }
    open() { this.readyState = 1; this.onopen?.(); }
    closeWith(code) { this.readyState = 3; this.onclose?.({ code }); }
    send() {}
    close() { this.readyState = 3; }
  }
  const delays = [];
  const made = new Connection({
    url: 'ws://test/v1/stream', WebSocket: FakeWebSocket, backoff: { baseMs: 500, capMs: 10_000, random: () => 0.999 },
    onOpen() {}, onFrame() {}, onState(state, { delayMs }) { if (state === 'reconnecting') delays.push(delayMs); },
  });
  return { made, sockets, delays };
}

test('a live socket replaced by the same device\'s newer one reconnects after the longest delay', () => {
  const { made, sockets, delays } = connection();
  made.start();
  sockets[0].open();
  made.live();
  sockets[0].closeWith(CLOSE_REPLACED);
  assert.deepEqual(delays, [10_000]);
  made.close();
});

test('sockets refused past the user\'s cap back off further each time', () => {
  const { made, sockets, delays } = connection();
  made.start();
  for (let i = 0; i < 6; i += 1) {
    sockets[i].open();
    sockets[i].closeWith(CLOSE_TOO_MANY_SOCKETS);
    made.open(); // what the timer would do
  }
  assert.deepEqual(delays, [499, 999, 1998, 3996, 7992, 9990]);
  made.close();
});
