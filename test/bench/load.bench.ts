// Load (npm run bench:load): a bounded, self-stopping load generator against POST /interactions and
// POST /analyze-bias on loopback. Fixed concurrency and duration per endpoint, keep-alive (undici via fetch);
// prints throughput, p50/p95/p99 and error counts. Starts its own stack unless --url/--analyze-url are given.
//   npm run bench:load -- [--duration 20] [--concurrency 16] [--url http://127.0.0.1:8081 --analyze-url http://127.0.0.1:8082]
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { RunningStack } from '../../scripts/lib/stack';
import { mintDevToken } from '../../shared/auth/tokens';
import { loadConfig } from '../../shared/config';
import { uniqueTenant } from '../support/tenants';
import { startReliabilityStack } from '../reliability/support/stack';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '16' },
    url: { type: 'string' },
    'analyze-url': { type: 'string' },
    secret: { type: 'string' },
  },
});
const durationMs = Number(args.duration) * 1000;
const concurrency = Number(args.concurrency);

let stack: RunningStack | undefined;
let env: Record<string, string | undefined> = process.env;
let writeUrl = args.url;
let analyzeUrl = args['analyze-url'];
if (!writeUrl) {
  stack = await startReliabilityStack({ only: ['auditWriteHttp', 'auditWriteConsumer', 'analyzeBiasHttp', 'analyzeBiasWorker'], env: { LOG_LEVEL: 'WARNING' }, quiet: true });
  env = stack.env;
  writeUrl = stack.url('auditWriteHttp');
  analyzeUrl = stack.url('analyzeBiasHttp');
}
if (args.secret) env = { ...env, AUTH_HS256_SECRET: args.secret };
const config = loadConfig(env);
const tenant = uniqueTenant('load');
const serviceToken = await mintDevToken(config, { tenantId: tenant, role: 'service' });
const viewerToken = await mintDevToken(config, { tenantId: tenant, role: 'viewer' });

const RESPONSES = [
  'The chairman should hire a young, energetic salesman for the new territory.',
  'Here is a balanced summary of the quarterly results with the main risks and mitigations.',
  'Women are naturally worse at engineering, so the team lead should be a man.',
  'Try restarting the service, then check the logs for connection timeouts.',
];

interface Result {
  endpoint: string;
  requests: number;
  errors: Record<string, number>;
  latencies: number[];
  wallMs: number;
}

async function drive(endpoint: string, makeRequest: (i: number) => { url: string; token: string; body: unknown }, okStatuses: number[]): Promise<Result> {
  const latencies: number[] = [];
  const errors: Record<string, number> = {};
  let i = 0;
  const t0 = performance.now();
  const stopAt = t0 + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < stopAt) {
        const req = makeRequest(i++);
        const start = performance.now();
        try {
          const res = await fetch(req.url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${req.token}` },
            body: JSON.stringify(req.body),
            signal: AbortSignal.timeout(30_000),
          });
          await res.arrayBuffer();
          if (!okStatuses.includes(res.status)) errors[String(res.status)] = (errors[String(res.status)] ?? 0) + 1;
        } catch (e) {
          const name = (e as Error).name;
          errors[name] = (errors[name] ?? 0) + 1;
        }
        latencies.push(performance.now() - start);
      }
    }),
  );
  return { endpoint, requests: latencies.length, errors, latencies, wallMs: performance.now() - t0 };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function report(r: Result) {
  const s = [...r.latencies].sort((a, b) => a - b);
  const errors = Object.values(r.errors).reduce((a, b) => a + b, 0);
  return `| ${r.endpoint} | ${concurrency} | ${(r.wallMs / 1000).toFixed(1)} | ${r.requests} | ${((r.requests / r.wallMs) * 1000).toFixed(1)} | ${pct(s, 50).toFixed(1)} | ${pct(s, 95).toFixed(1)} | ${pct(s, 99).toFixed(1)} | ${errors}${errors ? ` ${JSON.stringify(r.errors)}` : ''} |`;
}

try {
  // Warm-up: cold start of the analyzer and the first Firestore/Pub/Sub connections.
  for (let k = 0; k < 5; k++) {
    await fetch(`${analyzeUrl}/analyze-bias`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${viewerToken}` }, body: JSON.stringify({ llm_response: RESPONSES[k % 4], original_query: 'q', llm_model: 'm' }) }).then((r) => r.arrayBuffer());
  }
  const results: Result[] = [];
  results.push(
    await drive(
      'POST /interactions',
      (i) => ({
        url: `${writeUrl}/interactions`,
        token: serviceToken,
        body: { interaction_id: `load-${randomUUID()}`, original_query: `Question ${i}`, llm_provider: 'openai', llm_model: 'gpt-4o', llm_response: `${RESPONSES[i % 4]} (#${i})` },
      }),
      [201],
    ),
  );
  results.push(
    await drive(
      'POST /analyze-bias',
      (i) => ({ url: `${analyzeUrl}/analyze-bias`, token: viewerToken, body: { llm_response: `${RESPONSES[i % 4]} (#${i})`, original_query: 'q', llm_model: 'gpt-4o' } }),
      [200],
    ),
  );
  console.log(`\nLoad on loopback (${new Date().toISOString()}, ${stack ? 'own stack' : writeUrl}):`);
  console.log('| endpoint | concurrency | seconds | requests | req/s | p50 ms | p95 ms | p99 ms | errors |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) console.log(report(r));
} finally {
  await stack?.stop();
}
process.exit(0);
