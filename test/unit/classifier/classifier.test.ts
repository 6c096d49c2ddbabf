import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CLASSIFIER_VERSION, loadClassifier } from '../../../shared/domain/analyzer/classifier';
import { DEFAULT_FEATURE_CONFIG, extractFeatures, normalizeText } from '../../../shared/domain/analyzer/classifier/features';
import { decodeWeights, encodeWeights, scoreWith, type WeightsFile } from '../../../shared/domain/analyzer/classifier/model';
import { trainLinear, type BagExample, type PairExample, type PointExample } from '../../../shared/domain/analyzer/classifier/trainer';

const WEIGHTS = new URL('../../../shared/domain/analyzer/classifier/weights.json', import.meta.url);

describe('committed weights', () => {
  it('match the version the code expects, and the version is the digest of the weights', () => {
    const file = JSON.parse(readFileSync(WEIGHTS, 'utf8')) as WeightsFile;
    const digest = createHash('sha256').update(file.weights).update(String(file.bias)).update(String(file.scale)).digest('hex');
    expect(file.version).toBe(`lr-hashed-${digest.slice(0, 12)}`);
    expect(file.version).toBe(CLASSIFIER_VERSION);
    expect(loadClassifier().version).toBe(CLASSIFIER_VERSION);
  });
  it('are small and record what they were trained on, never CrowS-Pairs', () => {
    expect(readFileSync(WEIGHTS).length).toBeLessThan(5 * 1024 * 1024);
    const file = JSON.parse(readFileSync(WEIGHTS, 'utf8')) as WeightsFile;
    const sources = Object.keys(file.training.sources as Record<string, unknown>);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.some((s) => s.includes('crows'))).toBe(false);
  });
});

describe('loadClassifier', () => {
  it('is memoised and decodes well under a second', () => {
    const t0 = performance.now();
    const a = loadClassifier();
    const b = loadClassifier();
    expect(a).toBe(b);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('orders strongly biased sentences above neutral ones', () => {
    const clf = loadClassifier();
    const biased = [
      'Women are too emotional to be good leaders.',
      'Muslims are all terrorists and should be banned.',
      'black people are violent criminals',
      'Gay people are mentally ill and dangerous to children.',
    ];
    const neutral = [
      'The quarterly report shows revenue grew 4% in the northern region.',
      'Please submit the invoice by Friday so the payment can be processed.',
      'The meeting has been moved to the second floor conference room.',
    ];
    const minBiased = Math.min(...biased.map((t) => clf.score(t)));
    const maxNeutral = Math.max(...neutral.map((t) => clf.score(t)));
    expect(minBiased).toBeGreaterThan(maxNeutral);
  });

  it('scores the pro-stereotypical pronoun above the anti-stereotypical one for a WinoBias-style pair', () => {
    const clf = loadClassifier();
    expect(clf.score('The mechanic fixed the car for the receptionist because she asked nicely.')).toBeGreaterThan(
      clf.score('The mechanic fixed the car for the receptionist because he asked nicely.'),
    );
  });

  it('explains a score with the features that raise it', () => {
    const clf = loadClassifier();
    const top = clf.explain('Muslims are all terrorists and should be banned.', 3);
    expect(top.length).toBeGreaterThan(0);
    expect(top.every((t) => t.contribution > 0)).toBe(true);
    expect(top[0]!.contribution).toBeGreaterThanOrEqual(top[top.length - 1]!.contribution);
  });

  it('returns a probability for any text, including empty and long Unicode input', () => {
    const clf = loadClassifier();
    expect(clf.score('')).toBeGreaterThanOrEqual(0);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), (s) => {
        const p = clf.score(s);
        return Number.isFinite(p) && p >= 0 && p <= 1;
      }),
      { numRuns: 60 },
    );
    const big = '\u{1F600} Größe naïve — “quoted” '.repeat(4000);
    const p = clf.score(big);
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThanOrEqual(1);
    expect(clf.scoreMany(['a', 'b'])).toHaveLength(2);
  });
});

describe('features', () => {
  it('normalise quotes and apostrophes like RedditBias', () => {
    expect(normalizeText('They Don\u2019t say \u201chi\u201d')).toBe('they dont say "hi"');
    expect(extractFeatures("don't")).toEqual(extractFeatures('Don\u2019t'));
  });
  it('emit occupation×pronoun features only when a gendered pronoun follows an occupation', () => {
    const names = (t: string): string[] => (extractFeatures(t, DEFAULT_FEATURE_CONFIG, true).names ?? []).filter((n) => n.startsWith('wb:'));
    expect(names('The nurse said she would call.')).toContain('wb:pro:0:subj');
    expect(names('The nurse said he would call.')).toContain('wb:anti:0:subj');
    expect(names('She said the nurse would call.')).toEqual([]);
  });
});

describe('trainer', () => {
  const sample = (): { P: PointExample[]; Q: PairExample[] } => {
    const texts: [string, 0 | 1][] = [
      ['those people are lazy and dirty', 1],
      ['that group is violent and should leave', 1],
      ['they are all criminals', 1],
      ['the report was delivered on time', 0],
      ['our team reviewed the budget', 0],
      ['the new office opens on monday', 0],
    ];
    const cfg = { ...DEFAULT_FEATURE_CONFIG, hashBits: 12 };
    return {
      P: texts.map(([t, y]) => ({ x: extractFeatures(t, cfg), y, weight: 1 })),
      Q: [{ more: extractFeatures('the doctor said he', cfg), less: extractFeatures('the doctor said she', cfg), weight: 1 }],
    };
  };
  const opts = { dim: 1 << 12, epochs: 5, lr: 0.1, l2: 1e-5, seed: 7 };

  it('is deterministic: training twice gives identical weights', () => {
    const a = trainLinear(sample().P, sample().Q, opts);
    const b = trainLinear(sample().P, sample().Q, opts);
    expect(Buffer.from(a.w.buffer).equals(Buffer.from(b.w.buffer))).toBe(true);
    expect(a.bias).toBe(b.bias);
    const other = trainLinear(sample().P, sample().Q, { ...opts, seed: 8 });
    expect(Buffer.from(other.w.buffer).equals(Buffer.from(a.w.buffer))).toBe(false);
  });

  it('learns from bags which sentence of a biased response carries the bias', () => {
    // Every biased response is an ordinary sentence plus one biased clause; clean responses share the ordinary
    // sentences. No sentence is labelled: the bag loss has to find the clause.
    const cfg = { ...DEFAULT_FEATURE_CONFIG, hashBits: 12 };
    const f = (t: string) => extractFeatures(t, cfg);
    const ordinary = ['the invoice is attached for review', 'delivery is booked for next week', 'please confirm the meeting time'];
    const clauses = ['older staff cannot learn the new system', 'women are too emotional to lead', 'people from that area always default'];
    const bags: BagExample[] = [];
    ordinary.forEach((o, i) => {
      bags.push({ parts: [f(o), f(clauses[i]!)], y: 1, weight: 1 });
      bags.push({ parts: [f(o), f(ordinary[(i + 1) % 3]!)], y: 0, weight: 1 });
    });
    const { w, bias } = trainLinear([], [], { ...opts, epochs: 60 }, bags);
    const model = decodeWeights(encodeWeights({ version: 'test', features: cfg, bias, w }, {}));
    for (const c of clauses) for (const o of ordinary) expect(scoreWith(model, c)).toBeGreaterThan(scoreWith(model, o));
    // without bags nothing is learnt
    const none = trainLinear([], [], { ...opts, epochs: 60 });
    expect(none.w.every((x) => x === 0)).toBe(true);
  });

  it('learns the sample and survives int8 quantisation round-trip', () => {
    const { w, bias } = trainLinear(sample().P, sample().Q, { ...opts, epochs: 30 });
    const features = { ...DEFAULT_FEATURE_CONFIG, hashBits: 12 };
    const file = encodeWeights({ version: 'test', features, bias, w }, {});
    const model = decodeWeights(file);
    expect(scoreWith(model, 'they are lazy criminals')).toBeGreaterThan(scoreWith(model, 'the budget report was delivered'));
  });
});
