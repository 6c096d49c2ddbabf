// Acceptance (issue: foundation): `npm start` prints the endpoints, the README's curl works, Ctrl-C leaves nothing behind.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { freeOffset } from '../../scripts/lib/emulators';
import { FUNCTIONS } from '../../shared/topology';
import { stackContext } from '../support/e2e';

const ctx = stackContext();

// pgrep exits 1 when nothing matches; any other failure (a bad pattern, pgrep missing) must fail the test
// rather than read as "no survivors". `--` because the patterns start with a dash.
const processesMatching = (pattern: string) => {
  try {
    return execFileSync('pgrep', ['-f', '--', pattern], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch (error) {
    if ((error as { status?: number }).status === 1) return [];
    throw error;
  }
};

describe('npm start', () => {
  it('prints every endpoint, serves the README curl, and stops everything on SIGINT', async () => {
    const offset = await freeOffset(FUNCTIONS.map((f) => f.port));
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/stack.ts', '--no-ticks', '--port-offset', String(offset)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FIRESTORE_EMULATOR_HOST: '', PUBSUB_EMULATOR_HOST: '' },
    });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const deadline = Date.now() + 180_000;
    while (!output.includes('Ctrl-C stops everything') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 250));
    expect(output).toContain('Bias Monitor local stack is up');
    for (const f of FUNCTIONS) expect(output).toContain(f.name);

    const port = (entry: string) => FUNCTIONS.find((f) => f.entryPoint === entry)!.port + offset;
    const token = await ctx.token('acme', 'service');
    const res = await fetch(`http://127.0.0.1:${port('analyzeBiasHttp')}/analyze-bias`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ llm_response: 'The chairman should hire a young, energetic salesman.', original_query: 'Draft a job ad', query_context: { domain: 'hiring' }, user_id: 'u1', tenant_id: 'acme', llm_model: 'gpt-4o' }),
    });
    expect(res.status).toBe(200);
    const report = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(report).sort()).toEqual(['bias_detected', 'bias_report_summary', 'bias_score', 'bias_type', 'confidence', 'mitigation_action']);
    expect(report.bias_detected).toBe(true);

    // The survivor patterns below do find this stack's processes while it runs.
    const survivorPatterns = () => [`--port=${port('analyzeBiasHttp')}`, `--port ${8180 + offset}`, `--port=${8185 + offset}`];
    for (const pattern of survivorPatterns()) expect(processesMatching(pattern).length, pattern).toBeGreaterThan(0);

    const pid = child.pid!;
    child.kill('SIGINT');
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    expect(output).toContain('stopped.');
    // Nothing from this stack survives: no function on its ports, no emulator on its ports.
    const ports = [...FUNCTIONS.map((f) => f.port + offset), 8180 + offset, 8185 + offset];
    const alive = await Promise.all(ports.map((p) => fetch(`http://127.0.0.1:${p}/`).then(() => p, () => null)));
    expect(alive.filter(Boolean)).toEqual([]);
    for (const pattern of survivorPatterns()) expect(processesMatching(pattern), pattern).toEqual([]);
    expect(pid).toBeGreaterThan(0);
  });
});
