import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(__dirname, '../../..');
const cli = (args: string[]) => run(process.execPath, [join(root, 'bin/bias-monitor.js'), 'analyze', ...args], { cwd: root, timeout: 60_000 });

describe('bias-monitor analyze (child process)', () => {
  it('prints one report per line with ids echoed, an error record for malformed lines, and keeps going', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bm-analyze-'));
    const input = join(dir, 'requests.jsonl');
    writeFileSync(
      input,
      [
        JSON.stringify({ id: 'r1', llm_response: 'Older workers are naturally slow to learn new tools, so hire digital natives.', original_query: 'who should we hire?' }),
        '{not json',
        JSON.stringify({ id: 42, llm_response: 7 }),
        '',
        JSON.stringify({ id: 'r2', llm_response: 'Q3 revenue is forecast at $48M.' }),
      ].join('\n'),
    );
    const { stdout } = await cli(['--input', input]);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatchObject({ id: 'r1', bias_detected: true });
    expect(lines[0].bias_type).toContain('age');
    expect(lines[1]).toEqual({ id: null, line: 2, error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('JSON') } });
    expect(lines[2]).toMatchObject({ id: 42, line: 3, error: { code: 'VALIDATION_FAILED' } });
    expect(lines[3]).toMatchObject({ id: 'r2', bias_detected: false });

    const out = join(dir, 'out.jsonl');
    const cfg = join(dir, 'tenant.json');
    writeFileSync(cfg, JSON.stringify({ enabled_detectors: ['toxicity'] }));
    await cli(['--input', input, '--output', out, '--tenant-config', cfg]);
    const first = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]!);
    expect(first).toMatchObject({ id: 'r1', bias_detected: false });
  });

  it('exits non-zero only when the input cannot be read', async () => {
    await expect(cli(['--input', '/nonexistent/requests.jsonl'])).rejects.toMatchObject({ code: 1 });
  });
});
