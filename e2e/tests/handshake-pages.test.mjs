// The handshake in pages against the real stack: an app whose handshake answers 3 conversations a
// page, and seqsync-client following `limited`/`next` over HTTP and after the stream's `sync` frame.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { App } from '../lib/app.mjs';
import { Caller, eventually } from '../lib/http.mjs';
import { libraryClient, recordingFetch } from '../lib/clients.mjs';

const app = new App({ name: 'handshake-pages', env: { SEQSYNC_SYNC_PAGE_SIZE: '3' } });
const open = [];
before(() => app.start(), { timeout: 240_000 });
after(async () => {
  await Promise.all(open.map((client) => client.close()));
  await app.stop();
});

for (const [handshake, user] of [['http', 401], ['stream', 402]]) {
  test(`a device with news in 8 conversations gets all of them over 3 pages (${handshake})`, async () => {
    const senders = Array.from({ length: 8 }, (_, i) => 500 + i);
    for (const sender of senders) await new Caller(app, sender, 'phone').send(`d:${user}:${sender}`, `from ${sender}`);
    const fetch = recordingFetch();
    const client = libraryClient(app, user, 'laptop', { fetch, handshake });
    open.push(client);
    await client.connect();
    await client.caughtUp();
    await eventually(async () => new Set(client.received.map((event) => event.convId)).size, (n) => n === 8,
      { what: 'a message of each conversation' });

    const nexts = fetch.requests.filter((r) => r.url.pathname === '/v1/sync').map((r) => r.body.next);
    const pages = new Set(nexts.filter((next) => next !== undefined));
    assert.equal(pages.size, 2, JSON.stringify(nexts));
    // The stream: its frame is page 1, then pages 2 and 3. HTTP: pages 1, 2 and 3, and pages 2 and
    // 3 again after the frame (computed after the socket's subscription, which the HTTP page 1 may
    // not have been): each page once per chain.
    assert.deepEqual(nexts.filter((next) => next === undefined).length, handshake === 'http' ? 1 : 0, JSON.stringify(nexts));
    for (const page of pages) assert.equal(nexts.filter((next) => next === page).length, handshake === 'http' ? 2 : 1);
    assert.deepEqual(client.received.map((event) => event.convId).sort(), senders.map((s) => `d:${user}:${s}`).sort());
  });
}
