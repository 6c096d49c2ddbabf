// npm run build: bundles each Cloud Function source (functions/<source>/index.ts) with esbuild into
// dist/<source>/index.js plus a package.json for the Node 22 runtime. Terraform zips each folder (archive_file).
// npm packages stay external and are installed by Cloud Build from the generated package.json.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { FUNCTIONS } from '../shared/topology';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
const OUT = join(ROOT, 'dist');
const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };

const packageOf = (specifier: string) => {
  if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
};

async function buildSource(source: string, only: Set<string> | null) {
  if (only && !only.has(source)) return null;
  const outDir = join(OUT, source);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const t0 = performance.now();
  const result = await build({
    entryPoints: [join(ROOT, 'functions', source, 'index.ts')],
    outfile: join(outDir, 'index.js'),
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    packages: 'external',
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  const bundle = readFileSync(join(outDir, 'index.js'), 'utf8');
  const used = new Set<string>(['@google-cloud/functions-framework']);
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports) if (imp.external) used.add(packageOf(imp.path) ?? '');
  }
  // Packages loaded at run time through createRequire (require('x') / require.resolve('x')).
  for (const m of bundle.matchAll(/(?:require|resolve)\(\s*["']([^"'./][^"']*)["']\s*\)/g)) used.add(packageOf(m[1]!) ?? '');
  const dependencies: Record<string, string> = {};
  for (const name of [...used].filter(Boolean).sort()) {
    const version = rootPkg.dependencies[name];
    if (!version) throw new Error(`${source}: imports ${name}, which is not a runtime dependency in package.json`);
    dependencies[name] = version;
  }
  const pkg = { name: `bias-monitor-${source}`, private: true, type: 'module', main: 'index.js', engines: { node: '>=22' }, dependencies };
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return { source, kb: Math.round(bundle.length / 1024), ms: Math.round(performance.now() - t0), dependencies: Object.keys(dependencies).length };
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const sources = [...new Set(FUNCTIONS.map((f) => f.source))];
const results = [];
for (const s of sources) {
  try {
    const r = await buildSource(s, only.length ? new Set(only) : null);
    if (r) results.push(r);
  } catch (e) {
    console.error(`build of functions/${s} failed: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}
for (const r of results) console.log(`dist/${r.source}/index.js  ${r.kb} KB  ${r.dependencies} packages  ${r.ms} ms`);
