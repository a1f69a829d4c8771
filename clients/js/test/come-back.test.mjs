// The server's reconnect hints (docs/api.md, "Reconnect hints"): a `reconnect` frame before a close,
// or the close code 1012 alone, makes the socket come back within the window the server named, with
// jitter; connects that fail after it draw from windows growing from the server's, up to the cap.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Connection } from '../src/connection.js';
import { CLOSE_RESTARTING, DEFAULT_SPREAD_MS } from '../src/come-back.js';

function connection(random) {
  const sockets = [];
  class FakeWebSocket {
    constructor() { this.readyState = 0; sockets.push(this); }
    open() { this.readyState = 1; this.onopen?.(); }
    receive(frame) { this.onmessage?.({ data: JSON.stringify(frame) }); }
    closeWith(code) { this.readyState = 3; this.onclose?.({ code }); }
    fail() { this.onerror?.(); }
    send() {}
    close() { this.readyState = 3; }
  }
  const delays = [];
  const frames = [];
  const made = new Connection({
    url: 'ws://test/v1/stream', WebSocket: FakeWebSocket, backoff: { baseMs: 500, capMs: 10_000, random },
    onOpen() {}, onFrame(frame) { frames.push(frame); }, onState(state, { delayMs }) { if (state === 'reconnecting') delays.push(delayMs); },
  });
  return { made, sockets, delays, frames };
}

test('a restarting server\'s hint spreads the reconnect over its window, then failed connects over growing ones', () => {
  const draws = [0.5, 0.25, 0.75, 0.1];
  const { made, sockets, delays, frames } = connection(() => draws.shift() ?? 0.5);
  made.start();
  sockets[0].open();
  made.live();
  sockets[0].receive({ type: 'reconnect', reason: 'restarting', afterMs: 200, spreadMs: 4000 });
  sockets[0].closeWith(CLOSE_RESTARTING);
  made.open(); // the timer's work: the app is not back yet
  sockets[1].fail();
  made.open();
  sockets[2].fail();
  assert.deepEqual(delays, [2200, 2000, 7500], 'after + a draw from the window, then from twice the last one, up to the 10 s cap');
  assert.deepEqual(frames, [], 'the hint is the connection\'s, not the client\'s');
  made.open();
  sockets[3].open();
  made.live();
  sockets[3].fail();
  assert.equal(delays[3], 50, 'once live, the ordinary back-off again (0.1 of its first 500 ms)');
  made.close();
});

test('1012 without a frame comes back within the default window; 1013 with an overload hint after its delay', () => {
  const { made, sockets, delays } = connection(() => 0.5);
  made.start();
  sockets[0].open();
  made.live();
  sockets[0].closeWith(CLOSE_RESTARTING);
  assert.deepEqual(delays, [DEFAULT_SPREAD_MS / 2]);
  made.open();
  sockets[1].open();
  sockets[1].receive({ type: 'reconnect', reason: 'overloaded', afterMs: 1000, spreadMs: 4000 });
  sockets[1].closeWith(1013);
  assert.equal(delays[1], 3000);
  made.close();
});
