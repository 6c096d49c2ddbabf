import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureKey, foldKey } from '../../../scripts/lib/crossfit';
import { biasedClauses, loadFixtures, loadTwinPairs, sentencesOf, type Fixture } from '../../../scripts/lib/fixtures';
import { TAXONOMY_KEYS } from '../../../shared/domain/taxonomy';

const fixture = (id: string, split: Fixture['split'], label: Fixture['label'], llm_response: string): Fixture => ({
  id, domain: 'hiring', split, label, hard_negative: label === 'unbiased', expected_bias_type: label === 'biased' ? ['age', 'stereotype'] : [], original_query: 'q', llm_response,
});
const FIXTURES = [
  fixture('hiring-1', 'train', 'biased', 'Pick the younger candidate; older staff struggle with new tools.'),
  fixture('hiring-2', 'dev', 'biased', 'He will be a great engineer.'),
  fixture('hiring-3', 'test', 'biased', 'Women are too emotional to lead.'),
  fixture('hiring-4', 'train', 'unbiased', 'Train every hire on the new tools.'),
];
const isKey = (k: string) => TAXONOMY_KEYS.has(k);
const BOTH = new Set(['train', 'dev']);

function twinsDir(lines: object[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'twins-'));
  writeFileSync(join(dir, 'twins.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return dir;
}

describe('twins (decision record 019)', () => {
  it('pairs each twin with its original, the biased text first, and keeps only the requested splits', () => {
    const dir = twinsDir([
      { twin_of: 'hiring-1', llm_response: 'Pick the candidate with the stronger portfolio; every hire gets training on new tools.' },
      { twin_of: 'hiring-2', llm_response: 'They will be a great engineer.' },
      { twin_of: 'hiring-4', llm_response: 'Train every hire on the new tools, though older hires rarely keep up.', expected_bias_type: ['age', 'stereotype'] },
    ]);
    expect(loadTwinPairs([dir], FIXTURES, new Set(['train']), isKey)).toEqual([
      { id: 'hiring-1', biased: FIXTURES[0]!.llm_response, unbiased: 'Pick the candidate with the stronger portfolio; every hire gets training on new tools.', twin: 'unbiased' },
      { id: 'hiring-4', biased: 'Train every hire on the new tools, though older hires rarely keep up.', unbiased: FIXTURES[3]!.llm_response, twin: 'biased' },
    ]);
    expect(loadTwinPairs([dir], FIXTURES, BOTH, isKey).map((t) => t.id)).toEqual(['hiring-1', 'hiring-2', 'hiring-4']);
  });

  it('refuses twins of unknown or test fixtures, duplicates, copies, wrong types and extra keys, naming the line', () => {
    const bad = (line: object, extra: object[] = []) => () => loadTwinPairs([twinsDir([...extra, line])], FIXTURES, BOTH, isKey);
    expect(bad({ twin_of: 'hiring-99', llm_response: 'x' })).toThrow(/line 1: twin_of hiring-99 is not a fixture/);
    expect(bad({ twin_of: 'hiring-3', llm_response: 'x' })).toThrow(/test item/);
    expect(bad({ twin_of: 'hiring-2', llm_response: 'They are fine.' }, [{ twin_of: 'hiring-2', llm_response: 'They will do well.' }])).toThrow(/line 2: a second twin/);
    expect(bad({ twin_of: 'hiring-2', llm_response: ' He will be a great engineer. ' })).toThrow(/equals its original/);
    expect(bad({ twin_of: 'hiring-4', llm_response: 'Only hire young people.' })).toThrow(/needs 1–3 taxonomy keys/);
    expect(bad({ twin_of: 'hiring-4', llm_response: 'Only hire young people.', expected_bias_type: ['ageism'] })).toThrow(/needs 1–3 taxonomy keys/);
    expect(bad({ twin_of: 'hiring-2', llm_response: 'They will do well.', expected_bias_type: ['gender'] })).toThrow(/unbiased twin of hiring-2 names bias types/);
    expect(bad({ twin_of: 'hiring-2', llm_response: 'x', label: 'unbiased' })).toThrow(/twins.jsonl line 1/);
  });

  it('reads nothing when the folder is absent', () => {
    expect(loadTwinPairs([join(tmpdir(), 'no-such-twins-folder')], FIXTURES, new Set(['train']), isKey)).toEqual([]);
  });

  it('catches a second twin of one fixture across folders', () => {
    const a = twinsDir([{ twin_of: 'hiring-2', llm_response: 'They will do well.' }]);
    const b = twinsDir([{ twin_of: 'hiring-2', llm_response: 'They are fine.' }]);
    expect(() => loadTwinPairs([a, b], FIXTURES, BOTH, isKey)).toThrow(/a second twin of hiring-2/);
  });

  it('accepts the committed twins, each of a distinct train or dev fixture, in both folders', () => {
    const fixtures = loadFixtures('test/fixtures/enterprise');
    expect(loadTwinPairs(['test/fixtures/enterprise-twins'], fixtures, BOTH, isKey)).toHaveLength(480);
    const all = loadTwinPairs(['test/fixtures/enterprise-twins', 'test/fixtures/enterprise-twins-round-2'], fixtures, BOTH, isKey);
    expect(all).toHaveLength(1040);
    expect(all.filter((p) => p.twin === 'biased')).toHaveLength(240);
  });

  it('pairs every biased twin of batch 18 with an ordinary clean fixture of its own author block (decision record 029)', () => {
    const fixtures = loadFixtures('test/fixtures/enterprise');
    const byId = new Map(fixtures.map((f) => [f.id, f]));
    const pairs = loadTwinPairs(['test/fixtures/enterprise-twins-ordinary'], fixtures, BOTH, isKey);
    expect(pairs).toHaveLength(480);
    const batch18Authors = new Set(Array.from({ length: 8 }, (_, i) => `fixtures-author|${180 + i}`));
    for (const p of pairs) {
      expect(p.twin).toBe('biased');
      expect(byId.get(p.id)!.hard_negative).toBe(false);
      expect(batch18Authors.has(foldKey(fixtureKey(p.id)))).toBe(true);
    }
  });
});

describe('biasedClauses', () => {
  const clean = 'Thanks for the update. The shortlist has four names.\nInterviews run on Tuesday and Wednesday.';
  it('returns the sentence only the biased side has', () => {
    const biased = 'Thanks for the update. The shortlist has four names.\nSkip the mums with school runs, they are never reliable.\nInterviews run on Tuesday and Wednesday.';
    expect(biasedClauses(biased, clean)).toEqual(['Skip the mums with school runs, they are never reliable.']);
  });
  it('returns the edited sentence when a clause was changed inside it', () => {
    const biased = 'Thanks for the update. The shortlist has four names, all under thirty as you wanted.\nInterviews run on Tuesday and Wednesday.';
    expect(biasedClauses(biased, clean)).toEqual(['The shortlist has four names, all under thirty as you wanted.']);
  });
  it('returns nothing when the twin rewrote more than three sentences', () => {
    const rewritten = 'One two three four. Five six seven eight. Nine ten eleven twelve. Thirteen fourteen fifteen sixteen.';
    expect(biasedClauses(rewritten, clean)).toEqual([]);
  });
  it('splits at line breaks and drops fragments under four words', () => {
    expect(sentencesOf('- Rate: 4.5%\n- Term runs for sixty months.\nOk.')).toEqual(['- Term runs for sixty months.']);
  });
});
