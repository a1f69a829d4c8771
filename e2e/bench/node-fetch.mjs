// A fetch for many clients in one process: node:http with a bounded keep-alive pool, so 2,500
// clients share a few dozen connections (the global fetch would open one per concurrent request).
import http from 'node:http';

export function pooledFetch(maxSockets = 64) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  return (url, init = {}) => new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          size: text.length === 0 ? 0 : Buffer.byteLength(text), // bytes of the body, for the benchmarks' byte counts
          ok: response.statusCode >= 200 && response.statusCode < 300,
          status: response.statusCode,
          statusText: response.statusMessage,
          headers: { get: (name) => response.headers[name.toLowerCase()] ?? null },
          json: async () => JSON.parse(text),
          body: { cancel: async () => {} },
        });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    if (init.body) request.write(init.body);
    request.end();
  });
}
