// Speed work on the analyzer must not change what it reports. This pins the detector-level output (prepared
// sentences, group mentions, quotes, every finding, metric and the council report; the prompt's findings) of the
// fixture texts, the bench texts, mutated variants and council / tenant-config cases, as digests taken from the tree
// before the speed-ups (a15fdb7). The classifier is left out (its weights are retrained separately) and so is the
// decision / report step: both take only these outputs as input. Timings are left out.
//
// Digests are keyed by a hash of the input, so fixtures added later are simply not pinned (and texts derived from the
// fixture list, such as the bench texts, drop out when it grows); most pinned inputs must still be present. Items are
// named by id only (the challenge set stays unread). After an intended change of detector behaviour:
//   UPDATE_ANALYZER_DIGESTS=1 npx vitest run --project unit test/unit/analyzer/output-unchanged.test.ts
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareText, runDetectors } from '../../../shared/domain/analyzer';
import { detectStereotypes } from '../../../shared/domain/analyzer/detectors/stereotype';
import { detectToxicity } from '../../../shared/domain/analyzer/detectors/toxicity';
import { findGroupMentions } from '../../../shared/domain/analyzer/groups';
import { defaultTenantAnalyzerConfig, TenantAnalyzerConfig } from '../../../shared/schemas/analyzer-config';
import { textsOfSize } from '../../support/bench-texts';

const root = join(import.meta.dirname, '../../..');
const digestsFile = join(import.meta.dirname, 'output-digests.json');

interface Item {
  id: string;
  text: string;
  query: string;
  council?: { member_id: string; response: string }[];
  /** Tenant config as written (parsed with the schema's defaults when analysed). */
  config?: Record<string, unknown>;
}

const load = (dir: string): { id: string; llm_response: string; original_query: string }[] =>
  readFileSync(join(root, 'test/fixtures', dir, 'responses.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);


// Variants that reach the edges: no punctuation (hard-wrapped sentences), case, curly quotes, bullets, doubled spaces.
const MUTATIONS: ((t: string) => string)[] = [
  (t) => t.toLowerCase(),
  (t) => t.toUpperCase(),
  (t) => t.replace(/[.!?]/g, ''),
  (t) => t.replace(/'/g, '’').replace(/"/g, '“'),
  (t) => t.split('. ').map((s) => `- ${s}`).join('\n'),
  (t) => `"${t}"`,
  (t) => t.replace(/ /g, '  '),
  (t) => t.repeat(3).replace(/\./g, ','),
];

function items(): Item[] {
  const enterprise = load('enterprise');
  const dev = load('dev-variants');
  const out: Item[] = [];
  for (const [set, fx] of [['enterprise', enterprise], ['dev-variants', dev], ['challenge', load('challenge')]] as const)
    for (const f of fx) out.push({ id: `${set}:${f.id}`, text: f.llm_response, query: f.original_query });
  for (const size of [1024, 2048, 4096]) textsOfSize(enterprise, size, 50).forEach((text, i) => out.push({ id: `bench-${size}:${i}`, text, query: 'question' }));
  // a third of the fixtures, mutated; chosen and mutated by id so that added fixtures leave these alone
  for (const f of [...enterprise, ...dev]) {
    const h = parseInt(hash(f.id).slice(0, 8), 16);
    if (h % 3 === 0) out.push({ id: `variant:${f.id}`, text: MUTATIONS[h % MUTATIONS.length]!(f.llm_response), query: '' });
  }
  // Council answers and tenant settings (allow-list, a tenant rule, extra council lexicon, fewer detectors).
  const configs: Record<string, unknown>[] = [
    { allow_list: ['chairman', 'older workers', 'women', 'his'] },
    { enabled_detectors: ['stereotype', 'toxicity'] },
    {
      council: { extra_lexicon: { age: ['boomer', 'gen z'], custom: ['veterans'] } },
      domain_rules: [{ id: 'x1', description: 'test rule', bias_type: ['stereotype'], score: 0.6, all: [['\\bwomen\\b', '\\bmen\\b'], ['\\bbetter\\b']], unless: ['\\bequal'] }],
      extend_default_rules: true,
    },
  ];
  for (let i = 0; i < 30 && 3 * i + 3 < dev.length; i++) {
    const council = [0, 1, 2].map((k) => ({ member_id: `m${k}`, response: dev[3 * i + k]!.llm_response }));
    out.push({ id: `council-${i}`, text: dev[3 * i + 3]!.llm_response, query: '', council, config: configs[i % configs.length] });
  }
  return out;
}

function output(item: Item): unknown {
  const config = item.config ? TenantAnalyzerConfig.parse(item.config) : defaultTenantAnalyzerConfig();
  const doc = prepareText(item.text, item.query, item.council);
  const { timings: _timings, ...run } = runDetectors(doc, config, null);
  const queryDoc = item.query ? prepareText(item.query) : null;
  const queryFindings = queryDoc ? detectStereotypes(queryDoc).concat(detectToxicity(queryDoc)) : [];
  return { sentences: doc.sentences, mentions: doc.mentionsBySentence, quotes: doc.quotes, whole: findGroupMentions(item.text), run, queryFindings };
}

const inputKey = (item: Item) => hash(JSON.stringify([item.text, item.query, item.council ?? null, item.config ?? null]));

describe('analyzer output is unchanged by the speed-ups', () => {
  it('the fixture, bench and variant texts give the pinned detector output', () => {
    const actual: Record<string, [id: string, digest: string]> = {};
    for (const item of items()) actual[inputKey(item)] = [item.id, hash(JSON.stringify(output(item)))];
    if (process.env.UPDATE_ANALYZER_DIGESTS) {
      writeFileSync(digestsFile, `${JSON.stringify(actual).replace(/\],"/g, '],\n"')}\n`);
      return;
    }
    const pinned = JSON.parse(readFileSync(digestsFile, 'utf8')) as Record<string, [string, string]>;
    const compared = Object.keys(pinned).filter((k) => actual[k]);
    const changed = compared.filter((k) => actual[k]![1] !== pinned[k]![1]).map((k) => actual[k]![0]);
    expect(compared.length, 'most pinned inputs must still be present').toBeGreaterThan(0.6 * Object.keys(pinned).length);
    expect(changed, 'detector output changed; if intended, regenerate (see the top of this file)').toEqual([]);
  }, 120_000);
});
