// The web client's service worker: the app shell (the page, its scripts and styles, the library's
// modules) from the network when there is one, and from the cache when not, so that a reload
// without the network still starts the client, which then shows the device's local copy. Only the
// shell: the API (/v1/...) is never cached here (the library keeps the data, in IndexedDB).
// One worker serves the page, so the Web Push handlers (push-sw.js) run in it where the client has them.
try {
  importScripts('/web/push-sw.js');
} catch {
  // a client without push notifications
}

const CACHE = 'seqsync-shell';
// What the page needs before it has told the worker what it loaded (the rest: cacheShell in offline.js).
const CORE = ['/', '/web/app.js', '/web/views.js', '/web/system.js', '/web/groups.js', '/web/offline.js',
  '/web/style.css', '/web/offline.css', '/web/manifest.json', '/web/icon.svg', '/web/lib/index.js'];

/** @param {string} url */
function isShell(url) {
  const { origin, pathname } = new URL(url);
  return origin === self.location.origin && (pathname === '/' || pathname.startsWith('/web/'));
}

/** @param {string[]} urls cached one by one: a file missing must not keep the others out */
async function keep(urls) {
  const cache = await caches.open(CACHE);
  await Promise.all(urls.filter(isShell).map((url) => cache.add(url).catch(() => {})));
}

self.addEventListener('install', (event) => {
  event.waitUntil(keep(CORE.map((path) => new URL(path, self.location.origin).href)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event) => {
  if (event.data?.type === 'cache' && Array.isArray(event.data.urls)) event.waitUntil(keep(event.data.urls));
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || !isShell(request.url)) return; // the API and the rest: the network, untouched
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok) await cache.put(request, response.clone());
      return response;
    } catch (error) {
      const cached = await cache.match(request, { ignoreSearch: true })
        ?? (request.mode === 'navigate' ? await cache.match('/') : undefined);
      if (cached) return cached;
      throw error;
    }
  })());
});
