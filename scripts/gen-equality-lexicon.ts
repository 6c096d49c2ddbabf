// Regenerates shared/domain/analyzer/lexicons/retext-equality-words.json: the words retext-equality (MIT) can
// flag. The language detector uses it only as a pre-filter, to run retext-equality on the sentences that contain
// one of these words instead of on the whole response.   npx tsx scripts/gen-equality-lexicon.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const pkgDir = dirname(dirname(require.resolve('retext-equality')));
const { patterns } = (await import(pathToFileURL(join(pkgDir, 'lib/patterns-en.js')).href)) as { patterns: { inconsiderate: Record<string, string> }[] };
const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
const words = [...new Set(patterns.flatMap((p) => Object.keys(p.inconsiderate)).map((w) => w.toLowerCase()))].sort();
const out = join(import.meta.dirname, '../shared/domain/analyzer/lexicons/retext-equality-words.json');
writeFileSync(out, `${JSON.stringify({ source: `retext-equality ${version} (MIT, (c) Titus Wormer; see LICENSE.retext-equality.txt), its inconsiderate words and phrases`, words }, null, 0)}\n`);
console.log(`${words.length} words written to ${out}`);
