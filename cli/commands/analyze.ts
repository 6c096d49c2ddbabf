import { createReadStream, createWriteStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createAnalyzer } from '../../shared/domain/analyzer';
import { loadDefaultClassifier } from '../../shared/domain/analyzer/default-classifier';
import { AnalyzeBiasRequest } from '../../shared/schemas/analysis';
import { defaultTenantAnalyzerConfig, TenantAnalyzerConfig } from '../../shared/schemas/analyzer-config';
import { parseOptions } from '../args';

export const summary = 'analyse a JSONL file of analyze-bias requests offline; one BiasReport per line';
export const usage = `bias-monitor analyze --input FILE.jsonl [--output FILE] [--tenant-config FILE.json]

Reads one analyze-bias request per line ({"id": ..., "llm_response": ..., "original_query": ...}) and writes one
line per request: {"id": <id>, ...BiasReport}, streaming as it goes. A line that is not JSON or fails the request
schema yields {"id": <id or null>, "line": n, "error": {"code": "VALIDATION_FAILED", "message": ...}} and processing
continues. --tenant-config applies a tenant analyzer config (thresholds, allow-list, enabled detectors, rules).
Exit code 0 unless the input (or tenant config) cannot be read.`;

export async function run(args: string[]): Promise<number> {
  const o = parseOptions(args, { input: { type: 'string' }, output: { type: 'string' }, 'tenant-config': { type: 'string' } }, usage);
  if (!o.input) {
    console.error(`--input is required\n\n${usage}`);
    return 2;
  }
  try {
    if (!statSync(o.input).isFile()) throw new Error('not a file');
  } catch (e) {
    console.error(`cannot read ${o.input}: ${(e as Error).message}`);
    return 1;
  }
  let tenantConfig = defaultTenantAnalyzerConfig();
  if (o['tenant-config']) {
    try {
      const parsed = TenantAnalyzerConfig.safeParse(JSON.parse(readFileSync(o['tenant-config'], 'utf8')));
      if (!parsed.success) {
        console.error(`invalid tenant config ${o['tenant-config']}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
        return 2;
      }
      tenantConfig = parsed.data;
    } catch (e) {
      console.error(`cannot read tenant config ${o['tenant-config']}: ${(e as Error).message}`);
      return 1;
    }
  }
  const analyzer = await createAnalyzer({ classifier: loadDefaultClassifier() });
  const out = o.output ? createWriteStream(o.output) : process.stdout;
  const write = (obj: unknown) =>
    new Promise<void>((resolve, reject) => {
      const ok = out.write(`${JSON.stringify(obj)}\n`, (err) => (err ? reject(err) : undefined));
      if (ok) resolve();
      else out.once('drain', () => resolve());
    });
  const input = createReadStream(o.input, { encoding: 'utf8' });
  let readError: Error | null = null;
  input.on('error', (e) => (readError = e));
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  let failures = 0;
  let analysed = 0;
  for await (const raw of rl) {
    n++;
    const line = raw.trim();
    if (!line) continue;
    let json: unknown;
    let id: unknown = null;
    try {
      json = JSON.parse(line);
    } catch (e) {
      failures++;
      await write({ id: null, line: n, error: { code: 'VALIDATION_FAILED', message: `line is not valid JSON: ${(e as Error).message}` } });
      continue;
    }
    if (json && typeof json === 'object' && 'id' in json) {
      const v = (json as { id: unknown }).id;
      id = typeof v === 'string' || typeof v === 'number' ? v : null;
    }
    const parsed = AnalyzeBiasRequest.safeParse(json);
    if (!parsed.success) {
      failures++;
      await write({ id, line: n, error: { code: 'VALIDATION_FAILED', message: parsed.error.issues.map((i) => `${i.path.join('.') || '(line)'}: ${i.message}`).join('; ') } });
      continue;
    }
    try {
      const report = await analyzer.analyze(parsed.data, tenantConfig);
      await write({ id: parsed.data.id ?? null, ...report });
      analysed++;
    } catch (e) {
      failures++;
      await write({ id, line: n, error: { code: 'BIAS_ANALYSIS_FAILED', message: (e as Error).message } });
    }
  }
  if (o.output) await new Promise<void>((resolve) => (out as ReturnType<typeof createWriteStream>).end(resolve));
  if (readError) {
    console.error(`cannot read ${o.input}: ${(readError as Error).message}`);
    return 1;
  }
  console.error(`analysed ${analysed} request(s); ${failures} line(s) failed`);
  return 0;
}
