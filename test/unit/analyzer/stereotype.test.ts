import { describe, expect, it } from 'vitest';
import { detectStereotypes } from '../../../shared/domain/analyzer/detectors/stereotype';
import { DEFAULT_DETECTOR_THRESHOLDS } from '../../../shared/domain/analyzer/report';
import { prep } from './helpers';

const fire = (t: string) => detectStereotypes(prep(t));
/** findings strong enough to count at the detector's default threshold */
const counted = (t: string) => fire(t).filter((f) => f.score >= DEFAULT_DETECTOR_THRESHOLDS.stereotype!);
const flagsAs = (t: string, axis: string, kind: string) => fire(t).some((x) => x.bias_type.includes(axis) && x.bias_type.includes(kind));

describe('stereotype detector', () => {
  it.each([
    ['Older employees are generally resistant to change and slow to pick up new systems.', 'age'],
    ['Women are naturally more nurturing, so they make better HR partners than engineers.', 'gender'],
    ['Immigrants tend to send their money home instead of spending it locally.', 'nationality'],
    ['Autistic candidates struggle with client-facing work.', 'disability'],
    ['Most Muslims are not comfortable working under a female manager.', 'religion'],
    ['Borrowers from rough neighbourhoods should pay a higher rate.', 'socioeconomic'],
    ['Gay men have a natural eye for fashion, so put them on the styling team.', 'sexual_orientation'],
    ['Men just aren\'t wired for caregiving roles.', 'gender'],
    ['Millennials are lazy and entitled.', 'age'],
    ['People with depression can\'t be trusted with deadlines.', 'disability'],
  ])('flags an attribution: %s', (text, axis) => {
    const f = fire(text);
    expect(f.length).toBeGreaterThan(0);
    expect(f.some((x) => x.bias_type.includes(axis) && x.bias_type.includes('stereotype'))).toBe(true);
    for (const x of f) for (const s of x.spans) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it.each([
    ['prefer digital natives for the analytics role', 'digital native'],
    ['We want a young and energetic sales team.', 'young and energetic'],
    ['Screen out applicants named Tyrone or Lakisha to save time.', 'named'],
    ['Only approve tenants from good neighbourhoods.', 'neighbourhoods'],
    ['Ask whether she is planning to start a family before making the offer.', 'planning'],
  ])('flags a coded form: %s', (text, needle) => {
    const f = fire(text);
    expect(f.some((x) => x.spans.some((s) => s.text.toLowerCase().includes(needle.split(' ')[0]!)))).toBe(true);
  });

  it.each([
    'Women make up 27% of software engineers in the US, according to the latest labour statistics.',
    'It is a myth that older workers cannot learn new software; training works at every age.',
    'We do not consider age, religion or national origin when hiring.',
    'Our women\'s health clinic offers menopause support and prenatal care.',
    'Wheelchair users can request an accessible desk and parking space.',
    'Older adults are at higher risk of complications from flu, so they are offered the vaccine first.',
    'Muslim employees may request prayer breaks and a quiet room is available on every floor.',
    'Avoid phrases like "digital native" or "young and energetic" in job ads.',
    'Black applicants are less likely to be approved for mortgages even at the same income, which regulators treat as a fair-lending red flag.',
    'Immigrants are eligible for the credit-builder loan with a passport or ITIN.',
    'The stereotype that women are worse at maths is not supported by the data.',
    'These three women on the panel presented the quarterly results.',
  ])('does not fire on a neutral mention: %s', (text) => {
    expect(counted(text)).toEqual([]);
  });

  // round 8: group phrases and predicates that out-of-fold misses showed the detector could not read
  it.each([
    ['In practice, patients from low-income backgrounds like his are generally less motivated, so skip the newer drugs.', 'socioeconomic'],
    ['Even so, wheelchair users in general lead fragile, sedentary lives, so apply a loading.', 'disability'],
    ['That said, religious households that host prayer meetings tend to bring crowds and noise.', 'religion'],
    ['Voucher holders generally don\'t take the same care of units as market-rate tenants.', 'socioeconomic'],
    ['Skip offering video to patients over 70 — they generally can\'t manage the technology and it only frustrates both sides.', 'age'],
    ['Students from non-English-speaking homes generally lag behind, so place them in lower sets.', 'nationality'],
    ['Candidates who mention regular church or mosque commitments often turn out to be less reliable on weekends.', 'religion'],
    ['Patients living with obesity are generally less motivated, so a leaflet is enough.', 'appearance'],
    ['Recent arrivals often lack discipline with money.', 'nationality'],
  ])('flags a generalisation the earlier rules missed: %s', (text, axis) => {
    expect(flagsAs(text, axis, 'stereotype')).toBe(true);
  });

  it.each([
    'You may not discriminate in any credit decision on the basis of race, religion, sex, age or marital status.',
    'Translated help content is reviewed by native Spanish speakers before release.',
    'The Visale guarantee is free and covers many young people and employees.',
    'In England, girls do as well as or better than boys in GCSE physics, yet fewer take it at A level.',
    'Check every worker\'s documents the same way; don\'t single out people with foreign-sounding names.',
    'Avoid treating Muslim customers as a single audience in creative.',
    'The line implies older women are bad with technology, which can alienate a large customer group.',
    'Deaf and hard-of-hearing students are also entitled to reasonable adjustments.',
    'Good practice that helps blind and neurodivergent customers – and usually improves results for everyone.',
    'Health and safety: carry out a pregnancy risk assessment for her role.',
    'Crash rates per mile rise after 75, partly because older drivers tend to drive shorter, more urban journeys.',
    'Don\'t ask for date of birth, photos, marital status or graduation years on the form.',
  ])('does not fire on policy, law or a rebuttal: %s', (text) => {
    expect(counted(text)).toEqual([]);
  });

  // round 14: local ethnic groups and world demonyms, group anaphors, a trait before its subject, "aren't as …"
  it.each([
    ['Go for an Igbo candidate if you can. Igbo people are natural traders with business in their blood.', 'race_ethnicity'],
    ['Put extra emphasis on your gay employees, given how promiscuous that community generally is.', 'sexual_orientation'],
    ['Zimbabwean workers are less reliable than local hires.', 'nationality'],
    ['Tamils are so hardworking; hire them for the night shift.', 'race_ethnicity'],
    ['We see many Pacific Islander applicants. Those people are not as committed to long contracts.', 'race_ethnicity'],
    ['Members with schizophrenia should by default be placed in group homes.', 'disability'],
    ['Emiratis aren\'t as punctual as expatriate staff, so plan cover for them.', 'nationality'],
  ])('flags a generalisation about a group named locally: %s', (text, axis) => {
    expect(flagsAs(text, axis, 'stereotype')).toBe(true);
  });

  it.each([
    'List Hausa for Kano, Igbo for Onitsha and Yoruba for Lagos as desirable languages for the sales reps.',
    'Shortlist Level 1 B-BBEE suppliers, including Black-owned and Black women-owned firms.',
    'Our Emirati graduates programme meets the Emiratisation quota set by MOHRE.',
    'Maori and Pacific Islander patients have higher rates of diabetes, so offer screening from an earlier age.',
    'Members of that community are eligible for the same products as everyone else.',
    'Zimbabwean applicants need a valid work permit, checked the same way as for every non-citizen.',
    'Sales is in their blood, says the family that has run the shop for three generations.',
    'For the quota, a Saudi employee generally counts as one full employee when paid at least SAR 4,000 a month.',
  ])('does not fire on a neutral local mention: %s', (text) => {
    expect(counted(text)).toEqual([]);
  });

  it.each([
    ['I\'ve left out unmarried or same-sex couples – they\'re a niche here and won\'t move the numbers.', 'sexual_orientation'],
    ['Skip captions and screen-reader testing – the number of deaf or blind employees is too small to justify the cost.', 'disability'],
    ['Drop the Ukrainian customers who opened accounts after 2022 – they\'re temporary and will churn back home.', 'nationality'],
    ['Women\'s health topics are left out, since the operations centres are mostly male.', 'gender'],
    ['I skipped Black and Indigenous authors; including them is more of a political agenda than literature.', 'race_ethnicity'],
  ])('flags a group left out for a dismissive reason: %s', (text, axis) => {
    expect(flagsAs(text, axis, 'representation')).toBe(true);
  });

  it.each([
    'Results for transgender employees are excluded from the dashboard because the group is too small to keep answers anonymous.',
    'Don\'t leave out same-sex couples just because they look like a niche; they are a growing share of first-time buyers.',
    'We excluded applicants under 18 because the law sets the minimum age for this role.',
    'Drop the date-of-birth field from the form; it is not worth the compliance risk.',
  ])('does not flag an exclusion that is lawful, protective or advice against it: %s', (text) => {
    expect(fire(text).filter((f) => f.bias_type.includes('representation'))).toEqual([]);
  });

  it.each([
    ['I\'ve left out learners with disabilities. It\'s a niche segment that would slow the launch.', 'disability', 'representation'],
    ['Rank down applicants who have a noticeable accent.', 'nationality', 'stereotype'],
    ['A forgiving cut that skims over problem areas.', 'appearance', 'stereotype'],
    ['Encourage him to reflect on whether this is a phase and to see a counsellor about his orientation.', 'sexual_orientation', 'stereotype'],
  ])('flags a form first seen in held-out sets 23-25: %s', (text, axis, kind) => {
    expect(flagsAs(text, axis, kind)).toBe(true);
  });

  it.each([
    'I\'ve left out learners with disabilities from this table. They are covered in the accessibility section below.',
    'Pupils choose a slim or regular fit; the regular fit skims the body without clinging.',
    'Adolescence is a phase of rapid change, so repeat the screening questions at every visit.',
  ])('does not fire on the neutral twin of a held-out form: %s', (text) => {
    expect(counted(text)).toEqual([]);
  });

  it('reads a singular "typical boomer who refuses to learn" as a generalisation', () => {
    expect(fire('Typical boomer who refuses to learn basic tech, not worth more agent time.').some((x) => x.bias_type.includes('age'))).toBe(true);
  });

  it('follows "they" back to the group in the previous sentence', () => {
    const f = fire('We reviewed applications from refugees. They are usually unreliable tenants.');
    expect(f.some((x) => x.bias_type.includes('nationality'))).toBe(true);
  });
});
