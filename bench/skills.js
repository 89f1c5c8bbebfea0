#!/usr/bin/env node
'use strict';
/**
 * The cost of checking a trigger's input against a workflow's inputSchema (issue 24): a
 * 50-field schema (strings with lengths and formats, integers with bounds, an enum, a
 * pattern), compiled once as the server compiles it (dist/, so `npm run compile` first), then
 * a valid input validated many times in-process. Target: under 0.2 ms a call.
 *
 *   node bench/skills.js          (npm run bench prints it too)
 *
 * And, against a running server (bench/run.js starts one): a skill call over MCP (an
 * organization key's tools/call of an echo workflow, which waits for the output) against the
 * same trigger over `POST /webhook` plus `GET /status?wait=30` until it is done, one request at a
 * time, alternating, in one run. Target: the MCP call within 1.5x of the webhook's round trips.
 */
const path = require('node:path');

const MODULE = path.join(__dirname, '..', 'dist', 'src', 'plugins', 'triggers', 'server', 'src', 'domain', 'input-schema.js');

/** 50 typed fields and an input that matches them. */
function fiftyFields() {
  const properties = {};
  const input = {};
  for (let i = 0; i < 50; i += 1) {
    const name = `field${i}`;
    switch (i % 5) {
      case 0:
        properties[name] = { type: 'string', minLength: 1, maxLength: 200 };
        input[name] = `value ${i}`;
        break;
      case 1:
        properties[name] = { type: 'integer', minimum: 0, maximum: 1000000 };
        input[name] = i * 37;
        break;
      case 2:
        properties[name] = { type: 'string', format: 'email' };
        input[name] = `person${i}@example.com`;
        break;
      case 3:
        properties[name] = { enum: ['low', 'normal', 'high'] };
        input[name] = 'normal';
        break;
      default:
        properties[name] = { type: 'string', pattern: '^[A-Z]{3}-\\d{1,6}$' };
        input[name] = `ABC-${i}`;
    }
  }
  return { schema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }, input };
}

function validationBench({ iterations = 20000 } = {}) {
  const { checkInputSchema, problemsOf } = require(MODULE);
  const { schema, input } = fiftyFields();
  const bytes = Buffer.byteLength(JSON.stringify(input));
  const compileStart = process.hrtime.bigint();
  const validator = checkInputSchema(schema);
  const compileMs = Number(process.hrtime.bigint() - compileStart) / 1e6;
  // Again, with the validator set up (meta-schema, formats): what one more workflow costs.
  const againStart = process.hrtime.bigint();
  checkInputSchema(fiftyFields().schema);
  const compileAgainMs = Number(process.hrtime.bigint() - againStart) / 1e6;
  for (let i = 0; i < 2000; i += 1) problemsOf(validator, input, 'payload', bytes); // warm up
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) {
    if (problemsOf(validator, input, 'payload', bytes) !== null) throw new Error('the bench input should validate');
  }
  const perCallMs = Number(process.hrtime.bigint() - started) / 1e6 / iterations;
  return { fields: 50, iterations, compileMs: Number(compileMs.toFixed(1)), compileAgainMs: Number(compileAgainMs.toFixed(1)), perCallMs: Number(perCallMs.toFixed(4)), targetMs: 0.2, met: perCallMs < 0.2 };
}

const validationLine = (r) =>
  `Input validation, ${r.fields}-field schema: ${r.perCallMs} ms a call over ${r.iterations} calls (target < ${r.targetMs} ms: ${r.met ? 'met' : 'NOT met'}); compiled once in ${r.compileMs} ms (the first schema of the process), ${r.compileAgainMs} ms (the next)`;

async function jsonCall(baseUrl, method, path, headers, body) {
  const res = await fetch(new URL(path, baseUrl), { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json().catch(() => null);
  if (res.status >= 300 || !json) throw new Error(`bench/skills: ${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/**
 * MCP skill call vs POST /webhook + status wait (issue 24), sequential and alternating so both
 * see the same load. `auth`: headers of a user credential that may create organizations.
 */
async function skillCallBench({ baseUrl, auth, samples = 200 }) {
  const { data: org } = await jsonCall(baseUrl, 'POST', '/api/organizations', auth, { name: 'Skills bench' });
  const { data: key } = await jsonCall(baseUrl, 'POST', `/api/organizations/${org.organization.id}/keys`, auth, { name: 'bench' });
  const orgKey = { 'x-process-manager-key': key.secret };
  const echoIn = async (name) => {
    const { data: inst } = await jsonCall(baseUrl, 'POST', '/api/process-instances', orgKey, { organizationId: org.organization.id, name });
    const { data: wf } = await jsonCall(baseUrl, 'POST', `/api/process-instances/${inst.instance.id}/workflows`, orgKey, { name: `${name} echo`, action: 'echo' });
    return { instanceId: inst.instance.id, workflowId: wf.workflow.id };
  };
  const warmup = 20;
  await echoIn('Bench'); // the skill bench_echo
  // Waiting status polls are limited to 120 a minute per instance: the webhook side spreads over instances.
  const perInstance = 100;
  const webhookTargets = [];
  for (let i = 0; i < Math.ceil((samples + warmup) / perInstance); i += 1) webhookTargets.push(await echoIn(`Webhook${i}`));
  const input = { bench: true, items: [1, 2, 3], text: 'hello' };
  const mcpHeaders = { ...orgKey, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
  let id = 0;
  let webhookCalls = 0;

  async function viaWebhook() {
    const target = webhookTargets[Math.floor(webhookCalls / perInstance)];
    webhookCalls += 1;
    const started = await jsonCall(baseUrl, 'POST', `/webhook/${target.instanceId}/${target.workflowId}`, orgKey, { payload: input });
    for (;;) {
      const { data } = await jsonCall(baseUrl, 'GET', `/status/${target.instanceId}/${started.data.executionId}?wait=30`, orgKey);
      if (data.status === 'success') return data.output;
      if (data.status === 'failed') throw new Error(`bench/skills: the webhook's execution failed: ${JSON.stringify(data.error)}`);
    }
  }
  async function viaMcp() {
    id += 1;
    const answer = await jsonCall(baseUrl, 'POST', '/api/mcp', mcpHeaders, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'bench_echo', arguments: input } });
    if (!answer.result || answer.result.isError) throw new Error(`bench/skills: the MCP call failed: ${JSON.stringify(answer)}`);
    return answer.result.structuredContent;
  }
  const time = async (fn) => {
    const start = process.hrtime.bigint();
    const out = await fn();
    if (out?.text !== 'hello') throw new Error(`bench/skills: unexpected output ${JSON.stringify(out)}`);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };

  for (let i = 0; i < warmup; i += 1) { await viaWebhook(); await viaMcp(); } // warm up
  const webhook = [];
  const mcp = [];
  for (let i = 0; i < samples; i += 1) {
    // Alternate which goes first, so neither always follows the other.
    if (i % 2) { webhook.push(await time(viaWebhook)); mcp.push(await time(viaMcp)); }
    else { mcp.push(await time(viaMcp)); webhook.push(await time(viaWebhook)); }
  }
  const webhookMs = Number(median(webhook).toFixed(2));
  const mcpMs = Number(median(mcp).toFixed(2));
  const ratio = Number((mcpMs / webhookMs).toFixed(2));
  return { samples, webhookMs, mcpMs, ratio, target: 1.5, met: ratio <= 1.5 };
}

const skillCallLine = (r) =>
  `Skill call over MCP (echo, organization key) vs POST /webhook + status wait, one at a time alternating (${r.samples} each): ` +
  `${r.mcpMs} ms vs ${r.webhookMs} ms median, ${r.ratio}x (target <= ${r.target}x: ${r.met ? 'met' : 'NOT met'})`;

module.exports = { validationBench, validationLine, fiftyFields, skillCallBench, skillCallLine };

if (require.main === module) console.log(validationLine(validationBench()));
