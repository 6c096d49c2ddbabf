// The literal pre-check (text.ts) may skip a pattern on a sentence only when the pattern cannot match there; the
// regex rewrites used for speed (factored word boundary, joined alternations) match exactly what the originals match.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, prepareText } from '../../../shared/domain/analyzer';
import { anyOf, factorWordBoundary, literalPrecheck, matchesOf, mayMatch, requiredLiterals, sentencesThatMayMatch, testAny } from '../../../shared/domain/analyzer/text';

const root = join(import.meta.dirname, '../../..');
const texts = ['enterprise', 'dev-variants']
  .flatMap((d) => readFileSync(join(root, 'test/fixtures', d, 'responses.jsonl'), 'utf8').split('\n').filter((l) => l.trim()))
  .map((l) => (JSON.parse(l) as { llm_response: string }).llm_response);
const docs = texts.flatMap((t) => [t, t.toUpperCase(), t.replace(/[.!?]/g, '')]).map((t) => prepareText(t));

describe('requiredLiterals', () => {
  it.each([
    [/\bdigital natives?\b/gi, ['digital native']],
    [/\b(?:the )?(?:assumption|presumption|generali[sz]ation) that\b/i, ['assumption', 'presumption', 'generali']],
    [/(\d{2})[- ]year[- ]olds?/, ['year']],
    [/(?<=foo)bar|(?<name>baz)qux/, ['bar', 'baz']],
    [/(?:abc)?def/, ['def']],
    [/dead ?weight/, ['weight']],
    [/\bkill yourself\b|\bkys\b/i, ['kill yourself', 'kys']],
    [/\p{L}+ter/u, ['ter']],
    [/\k<n>abc(?<n>x)/, ['abc']],
    [/abx{2,}yz{0,3}w/, ['abx']],
  ])('%s', (re, expected) => expect(requiredLiterals(re)).toEqual(expected));

  it.each([
    // an alternative without a literal of 3+ characters, or literals hidden in escapes, give no pre-check
    /abc|de/,
    /a\u0041bc|xyz/,
    /ab{0,2}cd/,
    /\bnot (?:exactly |very )?(?:bright|smart)\b|x/,
    /(?:abc)*|def/,
    /[abc]+\d+/,
    /(?:ab|cd)e/,
  ])('%s has none', (re) => expect(requiredLiterals(re)).toBeNull());
});

describe('literal pre-check is sound', () => {

  it('every sentence a domain-rule pattern matches is kept by its pre-check', () => {
    const patterns = DEFAULT_RULES.flatMap((r) => [...r.all.flat(), ...r.unless]).map((p) => new RegExp(p, 'iu'));
    let checked = 0;
    for (const re of patterns) {
      const precheck = literalPrecheck(re);
      if (!precheck) continue;
      checked++;
      for (const doc of docs) {
        const may = sentencesThatMayMatch(precheck, doc.text, doc.sentences);
        for (const s of doc.sentences) {
          if (re.test(s.text)) {
            expect(may[s.index]).toBe(true);
            expect(mayMatch(precheck, s.text)).toBe(true);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});

describe('factorWordBoundary and anyOf', () => {
  it.each([
    [/\bfoo|\bbar(s)/gi, '/\\b(?:foo|bar(s))/gi'],
    [/\bfoo|bar/, '/\\bfoo|bar/'],
    [/\\bfoo|\bbar/, '/\\\\bfoo|\\bbar/'],
    [/\bfoo[|]|\bbar/, '/\\b(?:foo[|]|bar)/'],
    [/\bx\u{41}|\bq\k<n>(?<n>z)/u, '/\\b(?:x\\u{41}|q\\k<n>(?<n>z))/u'],
  ])('%s', (re, expected) => expect(String(factorWordBoundary(re))).toBe(expected));

  it('finds the same matches as the original on the fixture sentences', () => {
    const patterns = [...DEFAULT_RULES.flatMap((r) => [...r.all.flat(), ...r.unless]).map((p) => new RegExp(p, 'giu')), /\bthey\b|\bthem|\bthose (\w+)/gi];
    for (const re of patterns) {
      const factored = factorWordBoundary(re);
      const any = anyOf([re, /\bnever matches this\b/i]);
      for (const doc of docs.slice(0, 300))
        for (const s of doc.sentences) {
          expect(matchesOf(factored, s.text).map((m) => [m.index, ...m])).toEqual(matchesOf(re, s.text).map((m) => [m.index, ...m]));
          expect(testAny(any, s.text)).toBe(matchesOf(re, s.text).length > 0);
        }
    }
  });
});

describe('stereotype predicate "… makes them ideal"', () => {
  it('keeping the words before it whole accepts exactly the same texts', () => {
    const adj = '(?:ideal|perfect|natural|well suited|better suited|best suited|unsuitable|unfit|a poor fit|a natural fit|less suited|ill[- ]suited)';
    const before = new RegExp(`^(?:[\\s,]*[\\w'-]+){0,6}?[\\s,]+(?:makes?|making) (?:them|him|her) ${adj}\\b`, 'i');
    const after = new RegExp(`^(?:[\\s,]*[\\w'-]+(?![\\w'-])){0,6}?[\\s,]+(?:makes?|making) (?:them|him|her) ${adj}\\b`, 'i');
    const pieces = ['a', 'bc', "o'k", 'x-y', ' ', ',', '  ', ', ', 'makes', 'making', 'make', ' them ideal', ' her unfit', ' him a natural fit', '.', 'é', '\n', 'ideal'];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    let matched = 0;
    for (let i = 0; i < 30_000; i++) {
      let s = '';
      for (let j = Math.floor(rnd() * 14); j > 0; j--) s += pieces[Math.floor(rnd() * pieces.length)];
      if (rnd() < 0.5) s += ' makes them ideal';
      const expected = before.test(s);
      if (expected) matched++;
      expect(after.test(s), JSON.stringify(s)).toBe(expected);
    }
    expect(matched).toBeGreaterThan(1000);
  });
});
