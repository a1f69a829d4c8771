import { App } from './lib/app.mjs';
import { libraryClient } from './lib/clients.mjs';
const app = new App({ name: 'order-measure' });
await app.start();
for (const [round, conv] of [[1, 'd:901:902'], [2, 'd:903:904'], [3, 'd:905:906']]) {
  const [a] = conv.slice(2).split(':');
  const phone = libraryClient(app, a, 'phone');
  await phone.connect(); await phone.caughtUp();
  const started = Date.now();
  await Promise.all(Array.from({ length: 200 }, (_, i) => phone.send(conv, `m${i}`).committed));
  const ms = Date.now() - started;
  console.log(`round ${round}: 200 sends ${ms} ms, ${(ms / 200).toFixed(1)} ms per message; load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
  await phone.close();
}
await app.stop();
