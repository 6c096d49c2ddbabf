// npm run bench:graphql — requests/s and latency of a typical reviewer query (25 flagged, unreviewed audits
// sorted by confidence) against the Firestore emulator, through the real yoga server (in-process fetch, so HTTP
// socket overhead is excluded). Prints figures; asserts nothing.
import { performance } from 'node:perf_hooks';
import { uniqueTenant } from '../support/tenants';
import { createHarness, seedAudit } from '../integration/graphql/harness';

if (!process.env.FIRESTORE_EMULATOR_HOST) {
  console.error('run under the emulators: npm run bench:graphql');
  process.exit(2);
}
process.env.GCLOUD_PROJECT ??= 'demo-bias-monitor';

const AUDITS = Number(process.env.BENCH_AUDITS ?? 400);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const h = await createHarness();
const tenant = uniqueTenant('bench');
const TYPES = ['gender', 'age', 'language', 'toxicity', 'stereotype', 'representation'];
const t0 = performance.now();
let seeded = 0;
await Promise.all(
  Array.from({ length: 8 }, async (_, worker) => {
    for (let i = worker; i < AUDITS; i += 8) {
      const biased = i % 3 !== 0;
      await seedAudit(h, tenant, {
        input: { log_timestamp: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(), user_id: `u${i % 20}`, llm_model: i % 2 ? 'gpt-4o-mini' : 'claude-3' },
        report: { bias_detected: biased, bias_type: biased ? [TYPES[i % TYPES.length]!] : [], confidence: Math.round(((i * 37) % 100) / 100 * 100) / 100 },
      });
      seeded++;
    }
  }),
);
console.log(`seeded ${seeded} audits (${Math.round((seeded * 2) / 3)} flagged) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

const reviewer = await h.token(tenant, 'reviewer');
const QUERIES: Record<string, string> = {
  'reviewer queue (25 flagged, unreviewed, by confidence)': `{ llmInteractionAuditConnection(filter: { biasDetected: true, humanReviewed: false }, first: 25, sort: { field: CONFIDENCE, direction: DESC }) {
      edges { cursor node { id llmModel biasType biasConfidenceScore biasSeverity mitigationAction logTimestamp originalQuery llmResponse humanReviewed } }
      pageInfo { hasNextPage endCursor } } }`,
  'same + chainValid per audit (25 event reads + verification)': `{ llmInteractionAuditConnection(filter: { biasDetected: true, humanReviewed: false }, first: 25, sort: { field: CONFIDENCE, direction: DESC }) {
      edges { node { id biasType biasConfidenceScore chainValid } } } }`,
};

function pct(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const rows: Record<string, unknown>[] = [];
for (const [name, query] of Object.entries(QUERIES)) {
  const check = await h.gql(query, {}, reviewer);
  const edges = check.body.data?.llmInteractionAuditConnection?.edges as { node: { biasConfidenceScore: number } }[] | undefined;
  if (check.body.errors || !edges || edges.length !== 25) throw new Error(`bench query failed: ${JSON.stringify(check.body).slice(0, 300)}`);
  const confs = edges.map((e) => e.node.biasConfidenceScore);
  if (confs.some((c, i) => i > 0 && c > confs[i - 1]!)) throw new Error('results are not sorted by confidence');
  // warm-up
  for (let i = 0; i < 20; i++) await h.gql(query, {}, reviewer);
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        const r = await h.gql(query, {}, reviewer);
        if (r.body.errors) throw new Error(JSON.stringify(r.body.errors));
        latencies.push(performance.now() - s);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  rows.push({
    query: name,
    requests: latencies.length,
    'req/s': Math.round(latencies.length / elapsed),
    'p50 ms': pct(latencies, 50).toFixed(1),
    'p95 ms': pct(latencies, 95).toFixed(1),
    'p99 ms': pct(latencies, 99).toFixed(1),
  });
}
// Baseline in the same run: the adapter's Firestore query alone (no GraphQL, no auth), same concurrency.
{
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const s = performance.now();
        await h.deps.queries.page(tenant, { biasDetected: true, humanReviewed: false }, { field: 'bias_confidence_score', direction: 'desc' }, { first: 25 });
        latencies.push(performance.now() - s);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  rows.push({ query: 'baseline: the same Firestore query without GraphQL', requests: latencies.length, 'req/s': Math.round(latencies.length / elapsed), 'p50 ms': pct(latencies, 50).toFixed(1), 'p95 ms': pct(latencies, 95).toFixed(1), 'p99 ms': pct(latencies, 99).toFixed(1) });
}
console.log(`concurrency ${CONCURRENCY}, ${SECONDS} s per query, ${AUDITS} audits in the tenant, Node ${process.version}`);
console.table(rows);
process.exit(0);
