import { App } from './lib/app.mjs';
import { libraryClient } from './lib/clients.mjs';
import { loadavg } from 'node:os';
const app = new App({ name: 'order-measure' });
await app.start();
const strip = (url, init = {}) => {
  const headers = { ...(init.headers ?? {}) };
  delete headers.prefer;
  return fetch(url, { ...init, headers });
};
const results = { async: [], stored: [] };
for (let round = 0; round < 6; round += 1) {
  const mode = round % 2 === 0 ? 'async' : 'stored';
  const conv = `d:${900 + round * 2}:${901 + round * 2}`;
  const phone = libraryClient(app, 900 + round * 2, 'phone', mode === 'stored' ? { fetch: strip } : {});
  await phone.connect(); await phone.caughtUp();
  const started = Date.now();
  await Promise.all(Array.from({ length: 200 }, (_, i) => phone.send(conv, `m${i}`).committed));
  const ms = Date.now() - started;
  results[mode].push(ms / 200);
  console.log(`${mode}: 200 sends ${ms} ms, ${(ms / 200).toFixed(1)} ms per message; load ${loadavg()[0].toFixed(1)}; requests ${JSON.stringify(phone.api.stats.byKind)}`);
  await phone.close();
}
console.log(JSON.stringify(results));
await app.stop();
