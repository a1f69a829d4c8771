// The web client offline: the app shell cached by a service worker (sw.js), the device's local copy
// in IndexedDB (the library's IndexedDbStore), a banner while the browser has no network, sends
// made meanwhile shown as waiting, and the network's return acted on at once. The browser's
// online/offline events are trusted over the socket: a socket opened before the network went
// away can stay open for minutes, fed nothing.
import { IndexedDbStore, WebStorageStore } from './lib/index.js';

const $ = (selector) => document.querySelector(selector);

/** Registers the service worker (scope "/": the page and its files), and tells it what this page loaded. */
export function cacheShell() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('web/sw.js', { scope: '/' }).catch((error) => console.warn('no offline shell', error));
  // Whatever modules this page imported (its own and the library's) are the shell: cached as loaded,
  // so a file added to the client needs no list kept here.
  navigator.serviceWorker.ready.then((registration) => {
    const urls = performance.getEntriesByType('resource').map((entry) => entry.name)
      .filter((url) => new URL(url).origin === location.origin && new URL(url).pathname.startsWith('/web/'));
    registration.active?.postMessage({ type: 'cache', urls: [location.origin + '/', ...urls] });
  });
}

/**
 * The device's store: IndexedDB (messages, list, drafts, cursors, outbox), one database per user and
 * device; what an earlier version of the page kept in localStorage (cursors, outbox) is moved over once.
 * @param {{userId: string, deviceId: string}} me
 */
export async function deviceStore(me) {
  const name = `seqsync:${me.userId}:${me.deviceId}`;
  const legacy = new WebStorageStore(localStorage, name);
  if (!globalThis.indexedDB) return legacy;
  const store = new IndexedDbStore(name);
  try {
    const [cursors, outbox] = [await legacy.loadCursors(), await legacy.loadOutbox()];
    for (const [convId, seq] of Object.entries(cursors)) await store.saveCursor(convId, seq);
    for (const item of outbox) await store.putOutbox(item);
    await legacy.clear();
    return store;
  } catch (error) {
    console.warn('IndexedDB unusable here: cursors and outbox only, in localStorage', error);
    return legacy;
  }
}

/** The page's side of being offline, for one signed-in client. */
export class OfflineMode {
  /**
   * @param {import('./lib/index.js').SeqsyncClient} client
   * @param {import('./views.js').MessageViews} views
   */
  constructor(client, views) {
    this.client = client;
    this.views = views;
    // Registered after the app's own state listener: offline, this banner wins over "reconnecting".
    client.on('state', () => this.show());
    client.on('cleared', ({ convId }) => {
      views.list(convId).replaceChildren(); // opened again, the conversation comes from the server
      for (const pending of client.pending(convId)) views.showPending(convId, pending);
    });
    addEventListener('offline', () => {
      this.show();
      client.connection.drop(); // reconnects with a back-off, which fails until the network is back
    });
    addEventListener('online', () => {
      this.show();
      client.api.retryNow();
      client.connection.start(); // at once, not when the back-off ends; the outbox goes once live
    });
    // Sends an earlier visit left unsent: shown waiting, in the order made, until committed.
    client.outbox.loaded.then(() => {
      for (const pending of client.pending()) views.showPending(pending.convId, pending);
    });
    this.show();
  }

  show() {
    const offline = !navigator.onLine;
    document.body.classList.toggle('offline', offline);
    if (!offline) return;
    const banner = $('#banner');
    banner.hidden = false;
    banner.className = 'offline';
    banner.textContent = 'Offline: showing what this device keeps; messages you send wait and go when the network is back';
  }
}
