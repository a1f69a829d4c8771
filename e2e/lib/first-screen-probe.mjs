// A worker thread that times one user's first screen (the list, and a conversation's latest page)
// again and again until told to stop, then posts what it measured: on an event loop of its own, so
// that what the test does meanwhile (a flood from the same process) does not delay its timings.
import { parentPort, workerData } from 'node:worker_threads';

const { baseUrl, token, convId, pauseMs } = workerData;
const probes = [];
let running = true;
parentPort.on('message', (message) => {
  if (message === 'stop') running = false;
});

while (running) {
  for (const [what, path] of [['list', '/v1/conversations'], ['page', `/v1/conversations/${convId}/messages?last=20`]]) {
    const started = performance.now();
    let status;
    try {
      const response = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      status = response.status;
    } catch (error) {
      status = String(error);
    }
    probes.push({ what, status, ms: performance.now() - started, at: Date.now() });
  }
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
parentPort.postMessage(probes);
parentPort.close(); // nothing more to hear: let the thread end
