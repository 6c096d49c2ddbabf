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

describe('language detector: names and neutral roles (round 8)', () => {
  it.each([
    'If you are unhappy with our final response, you can refer the complaint to the Financial Ombudsman Service.',
    'Ask your midwife if you would like an interpreter at the appointment.',
    'Zara is allergic to nuts, so her EpiPen is in the first-aid cupboard.',
  ])('does not flag a proper name or a word without a neutral alternative: %s', (text) => {
    expect(retextFindings(prep(text), defaults()).filter((f) => f.score >= 0.3)).toEqual([]);
  });
  it('still flags an ethnic label that is capitalised mid-sentence', () => {
    expect(retextFindings(prep('Expect delays because of the usual Oriental reluctance to say no.'), defaults()).some((f) => f.bias_type.includes('race_ethnicity'))).toBe(true);
  });
  it('reads a definite case subject in a past-tense note as a known person, but keeps occupations', () => {
    expect(defaultGenderFindings(prep('The customer updated her name and title on the policy in January.'))).toEqual([]);
    expect(defaultGenderFindings(prep('The mechanic said he would call back.')).length).toBe(1);
  });
  it('reads the gender from the request or a title', () => {
    const reply = 'Reply to the customer and check whether she is using the desktop or tablet version.';
    expect(defaultGenderFindings(prep(reply, 'Draft a reply to a customer who says she cannot find the export option.'))).toEqual([]);
    expect(defaultGenderFindings(prep(reply)).length).toBe(1);
    expect(defaultGenderFindings(prep('Claim summary for Mrs Janet Hollis: the customer says she was not told about the excess.'))).toEqual([]);
  });
});

describe('language detector: default-gender role assumptions', () => {
  it('flags the pronoun for the person a job ad describes, but not for a person in a past-tense account', () => {
    const ad = "The right person is a hands-on leader: he'll need to earn the crew's respect in the first month.";
    const found = defaultGenderFindings(prep(ad));
    expect(found).toHaveLength(1);
    expect(found[0]!.spans.map((s) => s.text)).toEqual(['he', 'The right person']);
    expect(defaultGenderFindings(prep('The ideal candidate has run a night shift before; they will lead a crew of twenty.'))).toEqual([]);
    expect(defaultGenderFindings(prep('The person who called on Monday said she had already sent the form twice.'))).toEqual([]);
  });
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
