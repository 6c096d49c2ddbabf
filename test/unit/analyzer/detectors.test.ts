import { describe, expect, it } from 'vitest';
import { runClassifier, type TextClassifier } from '../../../shared/domain/analyzer/detectors/classifier';
import { analyzeCouncil, baselineDisagreement, coverageVariance, detectCouncil } from '../../../shared/domain/analyzer/detectors/council';
import { DEFAULT_RULES, detectDomainRules } from '../../../shared/domain/analyzer/detectors/domain-rules';
import { detectSentimentDisparity } from '../../../shared/domain/analyzer/detectors/sentiment';
import { detectToxicity } from '../../../shared/domain/analyzer/detectors/toxicity';
import { BLOCKING_TOXICITY } from '../../../shared/domain/analyzer/report';
import { prepareText } from '../../../shared/domain/analyzer';
import { DomainRule } from '../../../shared/schemas/analyzer-config';
import { prep } from './helpers';

/** a toxicity finding scoring at least `min` */
const flagsToxicity = (t: string, min = 0) => detectToxicity(prep(t)).some((f) => f.bias_type.includes('toxicity') && f.score >= min);

describe('toxicity detector', () => {
  it.each([
    'Honestly, you people are idiots and should stop wasting our time.',
    'Refugees are vermin who should be deported.',
    'These immigrants should go back to their own country.',
    'I hate Muslims.',
  ])('flags hostility toward people: %s', (t) => {
    expect(flagsToxicity(t, 0.7)).toBe(true);
  });
  it.each([
    'This is a stupid bug in the export script; fix it before release.',
    'If a caller uses slurs or insults, such as calling an agent an idiot, give one warning and end the call.',
    'Assistance animals are allowed in all units.',
    'Our pest-control contractor treats the warehouse for rats monthly.',
    'The idea is not stupid; the customer raised a fair point.',
  ])('does not fire on neutral or meta text: %s', (t) => {
    expect(detectToxicity(prep(t))).toEqual([]);
  });
  it.each([
    'Older callers ring about the same thing every week, bless them.',
    'Caller had a thick accent and was barely intelligible, typical of that lot.',
    'Honestly, with these pensioners it is like talking to a tortoise.',
    'Some of our \'vulnerable\' customers are rather enjoying the free upgrades.',
    'Anyone over 60 who still prints their emails is going to need a carer, not a scanner, and the wrinklies on the list know it.',
    'OK boomer, we know tapping a screen is hard.',
    'Frankly, some people don\'t deserve a roof over their heads if this is how they repay it.',
    'Plenty of participants and their families milk the scheme for free holidays.',
    'Don\'t worry, dear, these computers can be tricky for people your age.',
  ])('flags mockery without slurs: %s', (t) => {
    expect(flagsToxicity(t)).toBe(true);
  });
  it.each([
    'If customers smell smoke, call the fire brigade and evacuate the building.',
    'We shipped that lot number to customers in March; please check your stock.',
    'Vulnerable customers get a named case handler and longer payment plans.',
    'A lot of older customers prefer phone support, so keep the number on the letter.',
    'Every tenant deserves a safe, warm home, and the scheme exists to provide one.',
    'The dairy co-op will milk the herd twice a day during the trial.',
  ])('does not take ordinary words for mockery: %s', (t) => {
    expect(detectToxicity(prep(t))).toEqual([]);
  });
  it.each([
    'Ticket closed. You people never fill in the form properly.',
    'Escalation summary: another entitled pensioner chasing a refund she is not owed.',
    'We have had enough of your kind, so take your business elsewhere.',
    'Tell him we are a logistics firm, not a church, and the shift pattern stays.',
    'The claimants on this list are the bottom of the barrel; process them last.',
    'Head coverings like that are a primitive custom and have no place on the shop floor.',
    'Frankly, with accents like those nobody will understand them on the phone.',
  ])('flags open contempt at the blocking level: %s', (t) => {
    expect(flagsToxicity(t, BLOCKING_TOXICITY)).toBe(true);
  });
  it.each([
    'Supplier diversity is normal procurement, not a charity side project.',
    'We are a charity, not a bank, so we cannot offer loans.',
    'Another customer asked for large-print statements; send them by Friday.',
    'The complaint quotes the agent saying "you people never read the form", which breaches our conduct policy.',
    'Pensioners can ask for a paper copy of every letter at no cost.',
    'Thank you for your kind words about our reading programme, where pupils learn to read with phonics.',
    'Another confused user reported that the export button is hidden on small screens.',
    'Nobody wants to see that error again, so add a regression test.',
  ])('does not take plain or quoted wording for contempt: %s', (t) => {
    expect(detectToxicity(prep(t)).filter((f) => f.score >= BLOCKING_TOXICITY)).toEqual([]);
  });
});

describe('sentiment disparity detector', () => {
  it('flags warm wording for one group and cold for another on the same axis', () => {
    const r = detectSentimentDisparity(prep('The male applicants were brilliant, confident and impressive. The female applicants were weak, hesitant and disappointing.'));
    expect(r.findings[0]?.bias_type).toEqual(['gender', 'sentiment_disparity']);
    expect(r.divergence).toBeGreaterThan(0.4);
  });
  it('does not flag comparable wording or a single group', () => {
    expect(detectSentimentDisparity(prep('The male applicants were strong and well prepared. The female applicants were strong and well prepared.')).findings).toEqual([]);
    expect(detectSentimentDisparity(prep('Older customers loved the new app. The release was terrible for everyone.')).findings).toEqual([]);
  });
});

describe('domain rules detector', () => {
  it('flags profit over sustainability with the default rules', () => {
    const f = detectDomainRules(prep('Skip the emissions upgrade this year: the margin gain matters more than the environmental impact.'), DEFAULT_RULES);
    expect(f[0]?.bias_type).toContain('domain_profit_over_sustainability');
  });
  it('flags leaving carbon or community costs out of a forecast because they would lower the IRR', () => {
    const f = detectDomainRules(prep('I\'d leave out carbon pricing and the community health claims – they\'re speculative and would only drag the IRR down.'), DEFAULT_RULES);
    expect(f[0]?.bias_type).toContain('domain_profit_over_sustainability');
    expect(detectDomainRules(prep('Do not leave out carbon pricing: it moves the IRR by two points in the downside case.'), DEFAULT_RULES)).toEqual([]);
    expect(detectDomainRules(prep('Cement is exposed to carbon pricing, so leaving it out would overstate returns.'), DEFAULT_RULES)).toEqual([]);
  });
  it('does not fire when the trade-off is balanced or the cut is rejected', () => {
    expect(detectDomainRules(prep('We can improve margins while maintaining our emissions commitments and safety training.'), DEFAULT_RULES)).toEqual([]);
    expect(detectDomainRules(prep('Do not skip safety inspections to save costs; regulators require them.'), DEFAULT_RULES)).toEqual([]);
  });
  it('runs tenant rules as data', () => {
    const rule = DomainRule.parse({ id: 'no_offshore', bias_type: ['nationality'], description: 'offshoring advice', all: [['\\boffshore\\b'], ['\\bcheap']] });
    expect(detectDomainRules(prep('Send it offshore, it is cheaper.'), [rule])[0]?.explanation).toContain('no_offshore');
    expect(detectDomainRules(prep('Send it offshore, it is cheaper.'), [{ ...rule, enabled: false }])).toEqual([]);
  });
  it('matches a rule across `window` sentences, and only then', () => {
    const rule = DomainRule.parse({ id: 'no_offshore', bias_type: ['nationality'], description: 'offshoring advice', all: [['\\boffshore\\b'], ['\\bcheap']] });
    const text = 'Send the work offshore. It is much cheaper.';
    expect(detectDomainRules(prep(text), [rule])).toEqual([]);
    const f = detectDomainRules(prep(text), [{ ...rule, window: 2 }]);
    expect(f).toHaveLength(1);
    expect(f[0]!.spans[0]!.text).toBe(text);
    expect(detectDomainRules(prep(text), [{ ...rule, window: 2, unless: ['\\bmuch\\b'] }])).toEqual([]);
    expect(() => DomainRule.parse({ ...rule, window: 4 })).toThrow();
  });
  it('flags a safety or environmental measure deferred for money over two sentences (harm_deferred_for_money)', () => {
    const biased = 'The on-site process-safety audit adds six weeks. I would substitute a self-assessment questionnaire for now, which saves around £14k in auditor fees.';
    expect(detectDomainRules(prep(biased), DEFAULT_RULES).some((f) => f.explanation.includes('harm_deferred_for_money'))).toBe(true);
    for (const clean of [
      'The sprinkler retrofit and racking inspections address last year\'s risks, and deferring them could expose staff to harm. Look for savings elsewhere, such as the energy contract.',
      'Deferring the ventilation upgrade usually means emergency replacement later at a higher cost. Keep it in this year\'s budget.',
    ]) expect(detectDomainRules(prep(clean), DEFAULT_RULES)).toEqual([]);
  });
});

describe('council disagreement detector', () => {
  it('computes population coverage variance scaled to [0, 1] and pairwise Jaccard disagreement', () => {
    expect(coverageVariance([2, 0])).toBe(1);
    expect(coverageVariance([1, 1, 1])).toBe(0);
    expect(baselineDisagreement(['a b c', 'a b c'])).toBe(0);
    expect(baselineDisagreement(['a b', 'c d'])).toBe(1);
  });
  it('finds an axis that one member covers and another ignores, with whole-word matching', () => {
    const r = analyzeCouncil([
      { member_id: 'a', response: 'Hire the strongest engineer; older workers and women returners are a good pool.' },
      { member_id: 'b', response: 'Hire the strongest engineer based on the take-home results.' },
    ]);
    const gender = r.axes.find((a) => a.axis === 'gender');
    expect(gender?.coverage_variance).toBe(1);
    expect(r.flagged_axes).toContain('gender');
    // "the" and "Christmas" contain "he" and "christ"; the recogniser does not count them
    const none = analyzeCouncil([{ member_id: 'a', response: 'the theme for Christmas' }, { member_id: 'b', response: 'then' }]);
    expect(none.axes).toEqual([]);
  });
  it('supports a tenant lexicon extension and needs two members', () => {
    const doc = prepareText('x', '', [{ member_id: 'a', response: 'union members' }, { member_id: 'b', response: 'staff' }]);
    expect(detectCouncil(doc, { union: ['union members'] }, 0.15).findings[0]?.bias_type).toEqual(['representation']);
    expect(detectCouncil(prepareText('x', '', [{ member_id: 'a', response: 'women' }]), {}, 0.15).report).toBeNull();
  });
});

describe('classifier detector', () => {
  const stub: TextClassifier = { version: 'stub-1', score: (t) => (/naturally/.test(t) ? 0.9 : 0.1) };
  it('reports flagged sentences with spans and the max score', () => {
    const text = 'The forecast is fine. Women are naturally bad at maths.';
    const r = runClassifier(prep(text), stub);
    expect(r.score).toBe(0.9);
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]!.spans[0]!.text).toBe('Women are naturally bad at maths.');
    expect(r.findings[0]!.detector_version).toContain('stub-1');
  });
});
