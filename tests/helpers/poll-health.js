'use strict';
/**
 * Watches a server's event loop from outside: runs a request while another connection polls
 * GET /_health, one poll after another, and reports the longest wait for an answer (or between
 * two answers). Plain JavaScript, so that bench/run.js can require it too.
 */
const http = require('node:http');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function health(baseUrl, agent) {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL('/_health', baseUrl), { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
  });
}

/**
 * Runs `send()` while polling `baseUrl`/_health (then `alsoPoll()`, when given) every
 * `intervalMs`. Resolves to `send()`'s result, the longest wait in ms (a poll's answer, or the
 * gap between two answers beyond the interval) and the statuses /_health answered other than 204
 * (or the error code of a poll that failed, as ECONNRESET after a long stall).
 * @template T
 * @param {string} baseUrl
 * @param {() => Promise<T>} send
 * @param {{ intervalMs?: number, alsoPoll?: () => Promise<void> }} [options]
 * @returns {Promise<{ result: T, longestWaitMs: number, healthFailures: number[] }>}
 */
async function whilePolled(baseUrl, send, options = {}) {
  const intervalMs = options.intervalMs ?? 10;
  // Its own connection, so that a poll never waits behind the request it watches.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const healthFailures = [];
  let done = false;
  let longest = 0;
  let last = performance.now();
  const poller = (async () => {
    while (!done) {
      const sent = performance.now();
      // A stall past the server's keep-alive timeout resets the connection: a failure, not a crash.
      const status = await health(baseUrl, agent).catch((error) => error.code ?? String(error));
      if (status !== 204) healthFailures.push(status);
      if (options.alsoPoll) await options.alsoPoll();
      const now = performance.now();
      longest = Math.max(longest, now - sent, now - last - intervalMs);
      last = now;
      await sleep(intervalMs);
    }
  })();
  let result;
  try {
    result = await send();
  } finally {
    // The poller may still be waiting for the answer that measures a stall: let it finish.
    done = true;
    await poller;
    agent.destroy();
  }
  return { result, longestWaitMs: Math.max(longest, performance.now() - last - intervalMs), healthFailures };
}

module.exports = { whilePolled };
