// A push gateway on loopback that records what it receives: Matrix's push gateway API
// (POST /_matrix/push/v1/notify) and Web Push endpoints (POST /webpush/<id>, bodies kept raw).
// `failing` pushkeys are answered 500. `close()` ends it (and its open connections).
import { createServer } from 'node:http';

export class PushGateway {
  constructor() {
    this.received = []; // { at, path, headers, body (parsed JSON or Buffer) }
    this.failing = new Set();
    this.server = createServer((request, response) => {
      const chunks = [];
      request.on('data', (chunk) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks);
        const json = request.headers['content-type'] === 'application/json';
        const body = json ? JSON.parse(raw.toString('utf8')) : raw;
        this.received.push({ at: Date.now(), path: request.url, headers: request.headers, body });
        const pushkey = json ? body.notification?.devices?.[0]?.pushkey : request.url;
        const status = this.failing.has(pushkey) ? 500 : 200;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(status === 200 ? JSON.stringify({ rejected: [] }) : '{"error":"down"}');
      });
    });
  }

  async start() {
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${this.server.address().port}/_matrix/push/v1/notify`;
    return this;
  }

  /** The Matrix notifications sent to `pushkey`, oldest first. */
  notifications(pushkey) {
    return this.received.filter((r) => r.body?.notification?.devices?.[0]?.pushkey === pushkey)
      .map((r) => r.body.notification);
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
