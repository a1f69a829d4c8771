// seqsync-client (clients/js) in Node against an app started by app.mjs: a client for a user's
// device, with the ws package's WebSocket, and a stand-in for an app's renderer that reports what
// it rendered (or could not) as an app must.
import WebSocket from 'ws';
import { SeqsyncClient } from '../../clients/js/src/index.js';
import { mintToken } from './tokens.mjs';

/**
 * A library client of `userId` on `deviceId`. `options` go to SeqsyncClient (store, fetch,
 * WebSocket, handshake, ...). Unless `render: false`, every message is "rendered" as it arrives,
 * through `renderer(message)` (throwing = could not render), and the result reported.
 */
export function libraryClient(app, userId, deviceId, { render = true, renderer = () => {}, ...options } = {}) {
  const client = new SeqsyncClient({
    baseUrl: app.baseUrl, token: mintToken(app.secret, userId, deviceId), WebSocket, ackIntervalMs: 50, ...options,
  });
  client.received = []; // every message event: {convId, seq, source, content}
  client.on('message', ({ convId, message, source }) => {
    client.received.push({ convId, seq: message.seq, source, content: message.content, msgId: message.msgId });
    if (!render) return;
    try {
      renderer(message);
      client.rendered(convId, message.seq);
    } catch (error) {
      client.renderFailed(convId, message.seq, String(error.message ?? error));
    }
  });
  return client;
}

/** The seqs a client was handed for one conversation, in the order it got them. */
export function seqsOf(client, convId) {
  return client.received.filter((event) => event.convId === convId).map((event) => event.seq);
}

export function range(from, to) {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/**
 * A WebSocket class whose sockets can lose incoming frames (as if the network ate them), be cut
 * (the TCP connection destroyed under them) or not connect at all (`refuse`): to make a test's gap or disconnect real.
 */
export function faultyWebSocket() {
  const sockets = new Set();
  const control = { dropFrames: false, dropped: 0, refuse: false, sockets };
  class FaultyWebSocket extends WebSocket {
    constructor(url, ...rest) {
      super(control.refuse ? 'ws://127.0.0.1:9/v1/stream' : url, ...rest); // refused: as if the network were down
      sockets.add(this);
      this.on('close', () => sockets.delete(this));
    }

    set onmessage(listener) {
      super.onmessage = listener && ((event) => {
        if (control.dropFrames && JSON.parse(String(event.data)).type === 'message') {
          control.dropped += 1;
          return;
        }
        listener(event);
      });
    }

    get onmessage() { return super.onmessage; }
  }
  control.WebSocket = FaultyWebSocket;
  control.cut = () => { for (const socket of sockets) socket._socket?.destroy(); };
  return control;
}

/**
 * A fetch that records every request (method, URL, body) a client makes; `intercept(request, send)`
 * may stand in for the network (throw to lose the request, or send it and throw to lose the answer).
 */
export function recordingFetch(intercept = (request, send) => send()) {
  const requests = [];
  const recorder = async (url, init = {}) => {
    const request = { method: init.method ?? 'GET', url: new URL(String(url)), body: init.body ? JSON.parse(init.body) : undefined };
    requests.push(request);
    return intercept(request, () => fetch(url, init));
  };
  recorder.requests = requests;
  return recorder;
}
