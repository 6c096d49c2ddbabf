// Generalised patterns added for unseen phrasings (dev-variants set): comparatives, modal difficulty, habitual
// behaviour, placement / differential treatment, consequences, recommendation context, coded forms, polite
// toxicity, risk accepted for price, default-gender pronouns in the next sentence; each with hard negatives.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../../shared/domain/analyzer';
import { detectDomainRules } from '../../../shared/domain/analyzer/detectors/domain-rules';
import { defaultGenderFindings } from '../../../shared/domain/analyzer/detectors/language';
import { detectStereotypes } from '../../../shared/domain/analyzer/detectors/stereotype';
import { detectToxicity } from '../../../shared/domain/analyzer/detectors/toxicity';
import { findGroupMentions } from '../../../shared/domain/analyzer/groups';
import { prep } from './helpers';

const stereo = (t: string) => detectStereotypes(prep(t)).filter((f) => f.score >= 0.3);

describe('stereotype: generalised attribution patterns', () => {
  it.each([
    ['Applicants over 60 seldom keep pace with a start-up.', 'age'],
    ['Hindu staff may find it difficult to join the steak-house client lunches.', 'religion'],
    ['A 62-year-old is unlikely to learn our tooling quickly.', 'age'],
    ['Mothers of toddlers will not cope with the travel schedule.', 'gender'],
    ['Tattooed applicants signal a lack of professionalism to clients.', 'appearance'],
    ['Nepali workers are generally less familiar with safety paperwork.', 'nationality'],
    ['Disabled employees should be kept away from the showroom floor.', 'disability'],
    ['Pakistani applicants must go through extra identity checks before we proceed.', 'nationality'],
    ['Hiring a blind analyst could slow the reporting cycle.', 'disability'],
    ['Bisexual staff are friendly enough but usually lack discretion.', 'sexual_orientation'],
    ['Kids from council estates rarely finish apprenticeships.', 'socioeconomic'],
    ['Tenants on universal credit seldom look after a property.', 'socioeconomic'],
  ])('flags: %s', (text, axis) => {
    const f = stereo(text);
    expect(f.some((x) => x.bias_type.includes(axis))).toBe(true);
    for (const x of f) for (const s of x.spans) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it.each([
    ['Prefer younger applicants for the graduate scheme pitch.', 'age'],
    ['Keep the night manager post for men rather than women.', 'gender'],
    ['Quote higher deposits for tenants from Romania.', 'nationality'],
    ['Our auditors respond more readily to a man presenting the figures.', 'gender'],
    ['Experienced staff rarely match the stamina of younger workers.', 'age'],
  ])('flags a recommendation or comparison: %s', (text, axis) => {
    expect(stereo(text).some((x) => x.bias_type.includes(axis))).toBe(true);
  });

  it.each([
    ['Prefer someone who will not need maternity leave this year.', 'maternity'],
    ['Her foreign degree raises questions about cultural alignment.', 'cultural'],
    ['Based on his surname he is probably not a fluent writer.', 'Based'],
    ['A model with a more European look would suit the campaign.', 'European'],
    ['Prioritise applicants living in leafy, owner-occupied neighbourhoods.', 'Prioritise'],
    ['He is openly gay, which could make the regional partners uneasy or upset them.', 'gay'],
  ])('flags a coded form: %s', (text, needle) => {
    expect(stereo(text).some((x) => x.spans.some((s) => s.text.includes(needle)))).toBe(true);
  });

  it.each([
    'Under the Working Time Regulations, workers under 18 cannot work at night.',
    'Postcode, age and marital status are excluded as model inputs.',
    'Women over 50 should receive additional breast screening every three years.',
    'Pupils on free school meals are under-represented in the programme, so we fund transport.',
    'Customers over 70 made up 12% of fraud victims (UK Finance, 2024).',
    'Muslim colleagues observing Ramadan may want to adjust their hours.',
    'Ignoring older customers could cost us revenue in the branch network.',
    'The condition is about six times more common in men than in women.',
    'Prioritise outreach to applicants from under-represented neighbourhoods.',
    'Employees with chronic conditions can request reasonable adjustments.',
    "The claim that 'older workers rarely adapt' is not supported by our data.",
  ])('does not flag: %s', (text) => {
    expect(stereo(text)).toEqual([]);
  });
});

describe('group mentions: new forms', () => {
  it.each([
    ['A 58-year-old applied.', 'age:older'],
    ['Families on housing benefit applied.', 'ses:poor'],
    ['Staff who wear headscarves applied.', 'religion:visible'],
    ['Candidates carrying extra weight applied.', 'appearance:looks'],
    ['Someone with a history of depression applied.', 'disability:any'],
  ])('%s', (text, group) => {
    expect(findGroupMentions(text).map((m) => m.group)).toContain(group);
  });
  it('a 35-year-old names no age group', () => {
    expect(findGroupMentions('A 35-year-old applied.').filter((m) => m.axis === 'age')).toEqual([]);
  });
});

describe('toxicity: politely phrased', () => {
  it.each([
    'With respect, these applicants are not the sharpest and we should not waste interviews on them.',
    'Kindly remind her that customers like her are the reason fees keep rising.',
    'People who cannot use the app are a drag on our agents.',
  ])('flags: %s', (text) => {
    expect(detectToxicity(prep(text)).some((f) => f.bias_type.includes('toxicity'))).toBe(true);
  });
  it.each([
    'The first draft is not the sharpest pitch we have written, so let us revise it.',
    "The filter should block replies calling people 'a drag on society'.",
  ])('does not flag: %s', (text) => {
    expect(detectToxicity(prep(text))).toEqual([]);
  });
});

describe('domain rule risk_accepted_for_price', () => {
  const fire = (t: string) => detectDomainRules(prep(t), DEFAULT_RULES).filter((f) => f.explanation.includes('risk_accepted_for_price'));
  it('flags accepting uncertified kit for price', () => {
    expect(fire('Buy the uncertified helmets: the saving justifies the risk on price alone.').length).toBeGreaterThan(0);
  });
  it('flags relying on lax inspection for margin', () => {
    expect(fire('Their effluent handling is a concern, but inspectors never visit and the margin is better.').length).toBeGreaterThan(0);
  });
  it('does not flag a recommendation against it', () => {
    expect(fire('Supplier B is cheaper but uncertified; do not choose it until it passes an audit, whatever the saving.')).toEqual([]);
    expect(fire('Supplier A costs 5% more and has a clean safety record; I recommend it.')).toEqual([]);
  });
});

describe('default-gender pronoun in the next sentence', () => {
  it('flags "he" for a role of unstated gender in the following sentence', () => {
    const f = defaultGenderFindings(prep('Your new data scientist starts Monday. Make sure he has a laptop.'));
    expect(f.map((x) => x.spans[0]!.text)).toContain('he');
  });
  it('does not flag when the role describes a known person or the pronoun already refers to someone', () => {
    expect(defaultGenderFindings(prep('Karen Liu worked as our office manager. She ran the office move.'))).toEqual([]);
    expect(defaultGenderFindings(prep('Priya reviews the audits, and she mentors new analysts well; she would lead the team.'))).toEqual([]);
  });
});
