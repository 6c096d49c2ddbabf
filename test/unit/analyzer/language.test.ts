import { describe, expect, it } from 'vitest';
import { defaultGenderFindings, genderCodedFindings, retextFindings } from '../../../shared/domain/analyzer/detectors/language';
import { settingsFor } from '../../../shared/domain/analyzer';
import { config, defaults, prep } from './helpers';

describe('language detector: retext-equality wording', () => {
  it('flags gendered role nouns with a concrete suggestion', () => {
    const text = 'The chairman will brief every salesman on Monday.';
    const f = retextFindings(prep(text), defaults());
    const chair = f.find((x) => x.spans[0]!.text === 'chairman');
    expect(chair?.suggestion).toBe('chair');
    expect(chair?.bias_type).toEqual(['gender', 'language']);
    expect(f.some((x) => x.spans[0]!.text === 'salesman' && x.suggestion === 'salesperson')).toBe(true);
  });
  it('honours the tenant allow-list', () => {
    const text = 'Our product Chairman Pro ships with the chairman template.';
    const s = settingsFor(config({ allow_list: ['chairman'] }));
    expect(retextFindings(prep(text), s)).toEqual([]);
  });
  it('does not treat group nouns, pronouns or accessibility wording as findings that count', () => {
    const text = 'Women and men can book disabled parking; she said he would call.';
    expect(retextFindings(prep(text), defaults()).filter((f) => f.score >= 0.3)).toEqual([]);
  });
});

describe('language detector: default-gender role assumptions', () => {
  it('flags "he" for an engineer of unstated gender and suggests "they"', () => {
    const text = 'Each engineer must sign off before he merges the change.';
    const [f] = defaultGenderFindings(prep(text));
    expect(f?.spans[0]).toEqual({ start: text.indexOf('he merges'), end: text.indexOf('he merges') + 2, text: 'he' });
    expect(f?.suggestion).toBe('they');
  });
  it('scores the pro-stereotype pronoun above the anti-stereotype one (WinoBias occupations)', () => {
    const pro = defaultGenderFindings(prep('The mechanic said he would call back.'))[0]!;
    const anti = defaultGenderFindings(prep('The mechanic said she would call back.'))[0]!;
    expect(pro.score).toBeGreaterThan(anti.score);
  });
  it.each([
    'The engineer, Priya, said she would review the design.',
    'The female engineer said she would review the design.',
    'Each applicant must sign where he or she is asked to.',
    'The nurse manager Sarah Kim said she agreed.',
  ])('does not fire when the gender is stated or not assumed: %s', (text) => {
    expect(defaultGenderFindings(prep(text))).toEqual([]);
  });
});

describe('language detector: gender-coded job-ad wording', () => {
  it('reports strongly masculine-coded job ads as a hint with spans', () => {
    const text = 'Job ad: we are hiring a competitive, dominant, assertive, decisive, ambitious, fearless, driven, independent leader who thrives on challenge.';
    const [f] = genderCodedFindings(prep(text));
    expect(f?.bias_type).toEqual(['gender', 'language']);
    expect(f?.spans.length).toBeGreaterThanOrEqual(6);
  });
  it('ignores balanced wording and non-job text', () => {
    expect(genderCodedFindings(prep('We are hiring: a collaborative, supportive and ambitious analyst who is driven.'))).toEqual([]);
    expect(genderCodedFindings(prep('The competitive, dominant, assertive, decisive, ambitious, fearless team won the match.'))).toEqual([]);
  });
});
