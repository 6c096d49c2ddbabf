// npm run bench:analyze [-- --runs 5 --iterations 200 --http-seconds 10 --concurrency 16 --no-http]
// 1) In-process: p50/p95 ms per response at 1 KB, 2 KB and 4 KB (single thread = one core), median over runs.
//    Texts are cut from the enterprise fixtures (biased and clean answers mixed), so the detectors do real work.
// 2) HTTP: requests/s for POST /analyze-bias on the local stack (Firestore emulator for the tenant config, one
//    functions-framework process), driven by N concurrent keep-alive clients for a bounded time, loopback only.
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createAnalyzerSync } from '../../shared/domain/analyzer';
import { loadDefaultClassifier } from '../../shared/domain/analyzer/default-classifier';
import { loadFixtures } from '../../scripts/lib/fixtures';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    iterations: { type: 'string', default: '200' },
    'http-seconds': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    'no-http': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const iterations = Number(values.iterations);
const root = resolve(import.meta.dirname, '../..');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const median = (xs: number[]) => pct(xs, 50);
const r2 = (x: number) => Math.round(x * 100) / 100;

// Texts of a target size, built from whole fixture responses (then cut at a sentence end).
const fixtures = loadFixtures(join(root, 'test/fixtures/enterprise'));
function textsOfSize(bytes: number, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    let t = '';
    for (let j = 0; Buffer.byteLength(t) < bytes; j++) t += `${fixtures[(i * 7 + j * 13) % fixtures.length]!.llm_response}\n\n`;
    const cut = t.slice(0, bytes);
    const end = cut.lastIndexOf('. ');
    out.push(end > bytes * 0.8 ? cut.slice(0, end + 1) : cut);
  }
  return out;
}

const t0 = performance.now();
const classifier = loadDefaultClassifier();
const analyzer = createAnalyzerSync({ classifier });
const coldMs = performance.now() - t0;

const inProcess: Record<string, { p50_ms: number; p95_ms: number; runs: number; iterations: number }> = {};
for (const size of [1024, 2048, 4096]) {
  const texts = textsOfSize(size, 50);
  for (let i = 0; i < 50; i++) analyzer.analyzeSync({ llm_response: texts[i % texts.length]!, original_query: 'question' }); // warm-up
  const p50s: number[] = [];
  const p95s: number[] = [];
  for (let r = 0; r < runs; r++) {
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const text = texts[i % texts.length]!;
      const a = performance.now();
      analyzer.analyzeSync({ llm_response: text, original_query: 'question' });
      times.push(performance.now() - a);
    }
    p50s.push(pct(times, 50));
    p95s.push(pct(times, 95));
  }
  inProcess[`${size / 1024}KB`] = { p50_ms: r2(median(p50s)), p95_ms: r2(median(p95s)), runs, iterations };
}

let http: Record<string, unknown> = { skipped: true };
if (!values['no-http']) http = await httpBench(Number(values['http-seconds']), Number(values.concurrency));

console.log(
  JSON.stringify(
    {
      classifier: classifier ? classifier.version : 'disabled',
      cold_start_ms: Math.round(coldMs),
      in_process_per_response: inProcess,
      http_analyze_bias: http,
      load_average: loadavg().map((x) => Math.round(x * 10) / 10),
    },
    null,
    2,
  ),
);

async function httpBench(seconds: number, concurrency: number): Promise<Record<string, unknown>> {
  const { startStack } = await import('../../scripts/lib/stack');
  const { freeOffset } = await import('../../scripts/lib/emulators');
  const { devSecrets } = await import('../../scripts/lib/dev-secrets');
  const { FUNCTIONS } = await import('../../shared/topology');
  const { loadConfig } = await import('../../shared/config');
  const { mintDevToken } = await import('../../shared/auth/tokens');
  const secrets = devSecrets();
  const stack = await startStack({
    portOffset: await freeOffset(FUNCTIONS.map((f) => f.port)),
    importData: false,
    ticks: false,
    only: ['analyzeBiasHttp'],
    log: (l) => console.error(`[stack] ${l}`),
    env: { LOG_LEVEL: 'WARNING' },
  });
  try {
    const token = await mintDevToken(loadConfig({ AUTH_HS256_SECRET: secrets.AUTH_HS256_SECRET }), { tenantId: `bench-${Date.now()}`, role: 'service' });
    const url = new URL('/analyze-bias', stack.url('analyzeBiasHttp'));
    const bodies = textsOfSize(2048, 50).map((t) => JSON.stringify({ llm_response: t, original_query: 'question' }));
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const post = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
        req.end(body);
      });
    // warm-up (cold start, tenant-config cache, JIT)
    for (let i = 0; i < 40; i++) {
      const status = await post(bodies[i % bodies.length]!);
      if (status !== 200) throw new Error(`warm-up request failed with HTTP ${status}`);
    }
    const latencies: number[] = [];
    let ok = 0;
    let failed = 0;
    const deadline = performance.now() + seconds * 1000;
    const maxRequests = 50_000; // hard bound on the load generator
    let sent = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, c) => {
        let i = c;
        while (performance.now() < deadline && sent < maxRequests) {
          sent++;
          const a = performance.now();
          try {
            const status = await post(bodies[i++ % bodies.length]!);
            if (status === 200) ok++;
            else failed++;
          } catch {
            failed++;
          }
          latencies.push(performance.now() - a);
        }
      }),
    );
    const elapsed = (performance.now() - start) / 1000;
    agent.destroy();
    return { body_bytes: 2048, concurrency, seconds: r2(elapsed), ok, failed, requests_per_s: Math.round(ok / elapsed), latency_ms: { p50: r2(pct(latencies, 50)), p95: r2(pct(latencies, 95)) } };
  } finally {
    await stack.stop();
  }
}
