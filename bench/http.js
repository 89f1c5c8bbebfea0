'use strict';
// The benches' HTTP client: one keep-alive agent, a request that buffers its answer, and a check
// of the status that says what was being done.
const http = require('node:http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One HTTP request; resolves to {status, headers, text, json()}. A string body is sent as is. */
function request(baseUrl, method, urlPath, { headers = {}, body } = {}) {
  const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(urlPath, baseUrl), { method, agent, headers: { ...(data !== undefined && { 'content-type': 'application/json' }), ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function expectStatus(promise, status, what) {
  const res = await promise;
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text.slice(0, 300)}`);
  return res;
}

module.exports = { request, expectStatus };
