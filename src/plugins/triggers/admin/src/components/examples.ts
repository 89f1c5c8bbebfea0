/**
 * The four ways to call a trigger URL, as ready-to-copy samples. Secrets stay in shell
 * variables ($INSTANCE_KEY, $ORG_KEY, WEBHOOK_SECRET) so a copied sample never carries one.
 */
export interface TriggerExample {
  id: 'api-key' | 'organization-key' | 'query' | 'signed';
  code: string;
}

const json = (value: unknown) => JSON.stringify({ payload: value });
/** Single-quoted for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function triggerExamples(url: string, sample: unknown): TriggerExample[] {
  const body = shellQuote(json(sample));
  return [
    {
      id: 'api-key',
      code: `curl -X POST ${shellQuote(url)} \\\n  -H "X-API-Key: $INSTANCE_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d ${body}`,
    },
    {
      id: 'organization-key',
      code: `curl -X POST ${shellQuote(url)} \\\n  -H "X-Process-Manager-Key: $ORG_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d ${body}`,
    },
    {
      id: 'query',
      code: `curl -X POST "${url}?api_key=$INSTANCE_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d ${body}`,
    },
    {
      id: 'signed',
      code: [
        `// npm install standardwebhooks; WEBHOOK_SECRET=whsec_... node trigger.mjs`,
        `import { Webhook } from 'standardwebhooks';`,
        ``,
        `const body = JSON.stringify(${json(sample)});`,
        `const id = \`msg_\${crypto.randomUUID()}\`;`,
        `const now = new Date();`,
        `const signature = new Webhook(process.env.WEBHOOK_SECRET).sign(id, now, body);`,
        `const res = await fetch(${JSON.stringify(url)}, {`,
        `  method: 'POST',`,
        `  headers: {`,
        `    'Content-Type': 'application/json',`,
        `    'webhook-id': id,`,
        `    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),`,
        `    'webhook-signature': signature,`,
        `  },`,
        `  body,`,
        `});`,
        `console.log(res.status, await res.json());`,
      ].join('\n'),
    },
  ];
}

