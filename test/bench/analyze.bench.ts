// npm run bench:analyze [-- --runs 5 --iterations 200 --http-seconds 10 --http-runs 3 --warmup-seconds 10 --concurrency 16 --instances 1 --no-http]
// 1) In-process: p50/p95 ms per response at 1 KB, 2 KB and 4 KB (single thread = one core), median over runs.
//    Texts are cut from the enterprise fixtures (biased and clean answers mixed), so the detectors do real work.
//    Baseline for the HTTP figures: CPU ms per analysis of exactly the 2 KB bodies the HTTP clients send.
// 2) HTTP: requests/s for POST /analyze-bias on the local stack (Firestore emulator for the tenant config, one
//    functions-framework process), driven by N concurrent keep-alive clients for a bounded time, loopback only.
//    The load generator is a separate plain-JS node process writing pre-serialised requests on raw sockets, so
//    it costs little of the shared CPU; it reports its own CPU use. The server's CPU time per request is read from
//    /proc, so "server CPU per request − in-process CPU per analysis" is the cost of everything but the analyzer.
//    --instances N starts N−1 more functions-framework processes of the same function on their own ports (what
//    Cloud Functions does when it scales out) and spreads the client connections over them; 1 is the headline.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createAnalyzerSync } from '../../shared/domain/analyzer';
import { loadDefaultClassifier } from '../../shared/domain/analyzer/default-classifier';
import { loadFixtures } from '../../scripts/lib/fixtures';
import { textsOfSize } from '../support/bench-texts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    iterations: { type: 'string', default: '200' },
    'http-seconds': { type: 'string', default: '10' },
    'http-runs': { type: 'string', default: '3' },
    'warmup-seconds': { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    instances: { type: 'string', default: '1' },
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
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const r2 = (x: number) => Math.round(x * 100) / 100;

const fixtures = loadFixtures(join(root, 'test/fixtures/enterprise'));

const t0 = performance.now();
const classifier = loadDefaultClassifier();
const analyzer = createAnalyzerSync({ classifier });
const coldMs = performance.now() - t0;

const inProcess: Record<string, { p50_ms: number; p95_ms: number; mean_ms: number; runs: number; iterations: number }> = {};
for (const size of [1024, 2048, 4096]) {
  const texts = textsOfSize(fixtures, size, 50);
  for (let i = 0; i < 50; i++) analyzer.analyzeSync({ llm_response: texts[i % texts.length]!, original_query: 'question' }); // warm-up
  const p50s: number[] = [];
  const p95s: number[] = [];
  const means: number[] = [];
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
    means.push(mean(times));
  }
  inProcess[`${size / 1024}KB`] = { p50_ms: r2(median(p50s)), p95_ms: r2(median(p95s)), mean_ms: r2(median(means)), runs, iterations };
}

// The HTTP bodies, and the baseline: CPU ms per in-process analysis of exactly these texts (median over runs).
const httpTexts = textsOfSize(fixtures, 2048, 50);
function inProcessCpuMsPerAnalysis(): number {
  const perRun: number[] = [];
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < iterations; i++) analyzer.analyzeSync({ llm_response: httpTexts[i % httpTexts.length]!, original_query: 'question' });
    const c = process.cpuUsage(c0);
    perRun.push((c.user + c.system) / 1000 / iterations);
  }
  return r2(median(perRun));
}

/** utime + stime of a process in ms (Linux /proc; all threads). */
function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
}

// The load generator: plain JavaScript (no TypeScript loader) in its own process. Each of `concurrency`
// keep-alive connections writes one pre-built request (headers + body bytes), reads the response (Content-Length
// or chunked framing), and sends the next, until the deadline. Prints one JSON line with counts, latencies and CPU.
const GENERATOR = String.raw`
import { connect } from 'node:net';
let input = '';
for await (const chunk of process.stdin) input += chunk;
const cfg = JSON.parse(input);
const requests = cfg.requests.map((b) => Buffer.from(b, 'base64'));
const CRLF2 = Buffer.from('\r\n\r\n');
const latencies = new Float64Array(cfg.maxRequests);
let sent = 0, ok = 0, failed = 0, lost = 0;
const statuses = {};
function client(c) {
  return new Promise((done) => {
    let socket, buf = Buffer.alloc(0), started = 0, inFlight = false, finished = false, i = c;
    const stop = () => { finished = true; socket.end(); done(); };
    const next = () => {
      if (performance.now() >= deadline || sent >= cfg.maxRequests) return stop();
      sent++; started = performance.now(); inFlight = true;
      socket.write(requests[i++ % requests.length]);
    };
    const finish = (status) => {
      inFlight = false;
      latencies[ok + failed] = performance.now() - started;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200) ok++; else failed++;
    };
    const open = () => {
      buf = Buffer.alloc(0);
      const target = cfg.targets[c % cfg.targets.length];
      socket = connect(target.port, target.host);
      socket.setNoDelay(true);
      socket.on('connect', next);
      socket.on('data', (d) => {
        buf = buf.length ? Buffer.concat([buf, d]) : d;
        for (;;) {
          const h = buf.indexOf(CRLF2);
          if (h < 0) return;
          const head = buf.toString('latin1', 0, h).toLowerCase();
          const status = Number(head.slice(9, 12));
          const m = /\ncontent-length:\s*(\d+)/.exec(head);
          let end;
          if (m) { end = h + 4 + Number(m[1]); if (buf.length < end) return; }
          else if (head.includes('transfer-encoding: chunked')) { const t = buf.indexOf('\r\n0\r\n\r\n', h + 2); if (t < 0) return; end = t + 7; }
          else end = h + 4;
          buf = buf.subarray(end);
          finish(status);
          if (/\nconnection:\s*close/.test(head)) return socket.destroy(); // 'close' reconnects
          next();
        }
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        if (finished) return;
        if (inFlight) { inFlight = false; lost++; statuses.socket = (statuses.socket ?? 0) + 1; }
        if (performance.now() < deadline) open(); else { finished = true; done(); }
      });
    };
    open();
  });
}
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const deadline = t0 + cfg.seconds * 1000;
await Promise.all(Array.from({ length: cfg.concurrency }, (_, c) => client(c)));
const elapsedMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const lat = Array.from(latencies.subarray(0, ok + failed)).sort((a, b) => a - b);
const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? NaN;
process.stdout.write(JSON.stringify({ ok, failed: failed + lost, statuses, elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000, p50: q(0.5), p95: q(0.95) }) + '\n');
`;

interface GeneratorResult {
  ok: number;
  failed: number;
  statuses: Record<string, number>;
  elapsedMs: number;
  cpuMs: number;
  p50: number;
  p95: number;
}

function runGenerator(cfg: { targets: { host: string; port: number }[]; seconds: number; concurrency: number; maxRequests: number; requests: string[] }): Promise<GeneratorResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', GENERATOR], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as GeneratorResult) : reject(new Error(`load generator exited with ${code}`))));
    child.stdin.end(JSON.stringify(cfg));
  });
}

interface RunResult {
  requests_per_s: number;
  ok: number;
  failed: number;
  statuses?: Record<string, number>;
  seconds: number;
  latency_ms: { p50: number; p95: number };
  server_cpu_ms_per_request: number;
  in_process_cpu_ms_per_analysis: number;
  ratio_requests_to_in_process_analyses_per_core: number;
  server_cpu_cores: number;
  generator_cpu_ms_per_request: number;
  generator_cpu_share_of_one_core: number;
  load_average_at_start: number;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

async function waitForHttp(url: URL, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function httpBench(seconds: number, httpRuns: number, warmupSeconds: number, concurrency: number, instances: number): Promise<Record<string, unknown>> {
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
  const extra: ChildProcess[] = [];
  try {
    const token = await mintDevToken(loadConfig({ AUTH_HS256_SECRET: secrets.AUTH_HS256_SECRET }), { tenantId: `bench-${Date.now()}`, role: 'service' });
    const url = new URL('/analyze-bias', stack.url('analyzeBiasHttp'));
    const firstPid = stack.functionsByName.get('analyze-bias-http')?.pid;
    if (!firstPid) throw new Error('analyze-bias-http process not found');
    const urls = [url];
    const serverPids = [firstPid];
    const ff = join(root, 'node_modules', '@google-cloud', 'functions-framework', 'build', 'src', 'main.js');
    for (let k = 1; k < instances; k++) {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', ff, '--target=analyzeBiasHttp', '--signature-type=http', `--port=${port}`, `--source=${join('functions', 'analyze-bias', 'index.ts')}`], {
        cwd: root,
        env: { ...process.env, ...stack.env },
        detached: true,
        stdio: 'ignore',
      });
      extra.push(child);
      urls.push(new URL('/analyze-bias', `http://127.0.0.1:${port}`));
      serverPids.push(child.pid!);
    }
    await Promise.all(urls.map((u) => waitForHttp(new URL('/', u), 60_000)));
    const bodies = httpTexts.map((t) => JSON.stringify({ llm_response: t, original_query: 'question' }));
    const requests = bodies.map((body) =>
      Buffer.concat([
        Buffer.from(
          `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
          'latin1',
        ),
        Buffer.from(body),
      ]).toString('base64'),
    );
    // warm-up of every instance (cold start, tenant-config and token caches, JIT); each answer must be a BiasReport
    for (let i = 0; i < 40 * instances; i++) {
      const res = await fetch(urls[i % instances]!, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: bodies[i % bodies.length]! });
      const report = (await res.json()) as { bias_detected?: unknown };
      if (res.status !== 200 || typeof report.bias_detected !== 'boolean') throw new Error(`warm-up request failed with HTTP ${res.status}`);
    }
    // Load until the JIT has settled: the first seconds of load still compile (on V8's helper threads), which
    // inflates CPU per request by up to 2x. Not measured.
    const targets = urls.map((u) => ({ host: u.hostname, port: Number(u.port) }));
    const warm = await runGenerator({ targets, seconds: warmupSeconds, concurrency, maxRequests: 50_000, requests });
    if (warm.failed) throw new Error(`warm-up load had ${warm.failed} failed requests: ${JSON.stringify(warm.statuses)}`);
    const results: RunResult[] = [];
    for (let r = 0; r < httpRuns; r++) {
      const load = loadavg()[0]!;
      // baseline in the same run, right before the load: in-process CPU per analysis of the same texts
      const baselineCpuMs = inProcessCpuMsPerAnalysis();
      const serverCpu = () => serverPids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
      const cpu0 = serverCpu();
      const g = await runGenerator({ targets, seconds, concurrency, maxRequests: 50_000, requests });
      const serverCpuMs = serverCpu() - cpu0;
      const rps = g.ok / (g.elapsedMs / 1000);
      results.push({
        requests_per_s: Math.round(rps),
        ok: g.ok,
        failed: g.failed,
        ...(g.failed ? { statuses: g.statuses } : {}),
        seconds: r2(g.elapsedMs / 1000),
        latency_ms: { p50: r2(g.p50), p95: r2(g.p95) },
        server_cpu_ms_per_request: r2(serverCpuMs / (g.ok + g.failed)),
        in_process_cpu_ms_per_analysis: baselineCpuMs,
        ratio_requests_to_in_process_analyses_per_core: r2(rps / instances / (1000 / baselineCpuMs)),
        server_cpu_cores: r2(serverCpuMs / g.elapsedMs),
        generator_cpu_ms_per_request: r2(g.cpuMs / (g.ok + g.failed)),
        generator_cpu_share_of_one_core: r2(g.cpuMs / g.elapsedMs),
        load_average_at_start: r2(load),
      });
    }
    const med = (k: keyof RunResult) => median(results.map((x) => x[k] as number));
    const serverCpu = med('server_cpu_ms_per_request');
    const baselineCpuMs = med('in_process_cpu_ms_per_analysis');
    return {
      body_bytes: 2048,
      concurrency,
      instances,
      warmup_seconds: warmupSeconds,
      runs: results,
      median_requests_per_s: med('requests_per_s'),
      median_in_process_cpu_ms_per_analysis: baselineCpuMs,
      median_ratio_requests_to_in_process_analyses_per_core: med('ratio_requests_to_in_process_analyses_per_core'),
      median_server_cpu_ms_per_request: serverCpu,
      // what one fully used core would serve at this CPU cost per request
      one_core_requests_per_s_at_this_cost: Math.round(1000 / serverCpu),
      median_server_cpu_ms_outside_analyzer: r2(serverCpu - baselineCpuMs),
      median_generator_cpu_share_of_one_core: med('generator_cpu_share_of_one_core'),
    };
  } finally {
    await Promise.all(
      extra.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          return; // already gone
        }
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      }),
    );
    await stack.stop();
  }
}

let http: Record<string, unknown> = { skipped: true };
if (!values['no-http']) http = await httpBench(Number(values['http-seconds']), Number(values['http-runs']), Number(values['warmup-seconds']), Number(values.concurrency), Number(values.instances));

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
