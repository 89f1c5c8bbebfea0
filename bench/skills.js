#!/usr/bin/env node
'use strict';
/**
 * The cost of checking a trigger's input against a workflow's inputSchema (issue 24): a
 * 50-field schema (strings with lengths and formats, integers with bounds, an enum, a
 * pattern), compiled once as the server compiles it (dist/, so `npm run compile` first), then
 * a valid input validated many times in-process. Target: under 0.2 ms a call.
 *
 *   node bench/skills.js          (npm run bench prints it too)
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

module.exports = { validationBench, validationLine, fiftyFields };

if (require.main === module) console.log(validationLine(validationBench()));
