'use strict';
/**
 * Benchmark scenarios of the workflow trigger API, for bench/run.js.
 *
 *   const { scenarios, serverEnv } = require('./triggers');
 *   const list = await scenarios({ baseUrl, jwt, apiKey });
 *
 * `scenarios` sets up, over HTTP, an organization, a process instance and an `echo` workflow
 * with a signing secret (with `jwt`, or the user API key `apiKey` when no JWT is given), and
 * returns an array of scenarios:
 *
 *   { name, method, path, headers, body, setupRequest? }
 *
 * - `method`, `path` (relative to baseUrl) and `body` (a JSON string) are fixed.
 * - `headers` is a plain object, EXCEPT for the signed trigger and the new-Idempotency-Key
 *   trigger, where it is a FUNCTION that returns fresh headers for each request: every signed
 *   request needs its own webhook-id (a repeated id is a duplicate, answered without running
 *   anything) and a current timestamp (5 minutes of tolerance), and every new-key request its
 *   own key. Call `headers()` once per request. The repeated-key scenario sends one key
 *   throughout: after the first, every answer is the first execution (duplicate: true).
 * - `setupRequest(request)` is given for the same scenario in autocannon's form (its
 *   `requests: [{ method, path, body, setupRequest }]` option): it returns the request with
 *   fresh headers. Scenarios whose headers are fixed have no setupRequest.
 *
 * The triggers answer 202 when accepted, the status read 200. Executions run in-process (no REDIS_URL).
 *
 * `serverEnv`: the server must run with these variables, or the per-instance trigger rate
 * limit (TRIGGER_RATE_LIMIT, 600 a minute by default) answers most requests with 429.
 */
const crypto = require('crypto');

const serverEnv = { TRIGGER_RATE_LIMIT: '100000000' };

async function call(baseUrl, credential, method, path, body) {
  const res = await fetch(new URL(path, baseUrl), {
    method,
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok || !json || json.success !== true) {
    throw new Error(`bench/triggers: ${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  }
  return json.data;
}

/** Standard Webhooks headers for `body` (the same computation as the standardwebhooks package). */
function signer(secret, body) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const prefix = crypto.randomBytes(6).toString('hex');
  let counter = 0;
  return () => {
    counter += 1;
    const id = `msg_bench_${prefix}_${counter}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = crypto.createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
    return {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${signature}`,
    };
  };
}

async function scenarios({ baseUrl, jwt, apiKey }) {
  const credential = jwt || apiKey;
  if (!baseUrl || !credential) throw new Error('bench/triggers: scenarios({ baseUrl, jwt, apiKey }) needs baseUrl and a jwt or apiKey.');

  const { organization } = await call(baseUrl, credential, 'POST', '/api/organizations', { name: 'Benchmark' });
  const { instance } = await call(baseUrl, credential, 'POST', '/api/process-instances', {
    organizationId: organization.id,
    name: 'Benchmark instance',
  });
  const secret = `whsec_${crypto.randomBytes(32).toString('base64')}`;
  const { workflow } = await call(baseUrl, credential, 'POST', `/api/process-instances/${instance.id}/workflows`, {
    name: 'Benchmark echo',
    action: 'echo',
    signingSecrets: [secret],
  });

  const path = `/webhook/${instance.id}/${workflow.id}`;
  const body = JSON.stringify({ payload: { bench: true, items: [1, 2, 3], text: 'hello' } });
  const signedHeaders = signer(secret, body);

  // A new Idempotency-Key per request (each one a new execution, through the unique index),
  // and one key sent again and again (each answered with the first execution, nothing run).
  const keyPrefix = crypto.randomBytes(6).toString('hex');
  let keyCounter = 0;
  const keyedHeaders = () => {
    keyCounter += 1;
    return { 'content-type': 'application/json', 'x-api-key': instance.apiKey, 'idempotency-key': `bench-${keyPrefix}-${keyCounter}` };
  };

  // One execution to read back, as a caller polls it (GET /status, no wait).
  const started = await fetch(new URL(path, baseUrl), { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': instance.apiKey }, body });
  if (started.status !== 202) throw new Error(`bench/triggers: the first trigger answered ${started.status}`);
  const { executionId } = (await started.json()).data;

  return [
    {
      name: 'trigger (instance key)',
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', 'x-api-key': instance.apiKey },
      body,
    },
    {
      name: 'trigger (signed)',
      method: 'POST',
      path,
      headers: signedHeaders,
      body,
      setupRequest: (request) => ({ ...request, headers: { ...(request.headers || {}), ...signedHeaders() } }),
    },
    {
      name: 'trigger (Idempotency-Key, new)',
      method: 'POST',
      path,
      headers: keyedHeaders,
      body,
      setupRequest: (request) => ({ ...request, headers: { ...(request.headers || {}), ...keyedHeaders() } }),
    },
    {
      name: 'trigger (Idempotency-Key, repeated)',
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', 'x-api-key': instance.apiKey, 'idempotency-key': `bench-${keyPrefix}-repeat` },
      body,
    },
    {
      name: 'GET status (instance key)',
      method: 'GET',
      path: `/status/${instance.id}/${executionId}`,
      headers: { 'x-api-key': instance.apiKey },
    },
  ];
}

module.exports = { scenarios, serverEnv };
