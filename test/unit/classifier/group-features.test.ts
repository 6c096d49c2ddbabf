// Group-context feature block (decision record 014): words around a group word with the group abstracted away.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FEATURE_CONFIG, extractFeatures } from '../../../shared/domain/analyzer/classifier/features';
import { decodeWeights, encodeWeights, scoreWith } from '../../../shared/domain/analyzer/classifier/model';

const groupNames = (text: string, cfg = DEFAULT_FEATURE_CONFIG) => {
  const f = extractFeatures(text, { ...cfg, unigram: 0, bigram: 0, chars: 0, pairs: 0, winobias: 0 }, true);
  return f.names!;
};

describe('group-context features', () => {
  it('abstract the group: the same predicate about different groups gives the same features', () => {
    const a = groupNames('In our experience immigrants usually lack the discipline for audit work.');
    const b = groupNames('In our experience pensioners usually lack the discipline for audit work.');
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
    expect(a).toContain('G … usually');
    expect(a).toContain('G usually lack');
    expect(a).toContain('experience G');
  });
  it('are absent when no group word occurs, and never cross a sentence boundary', () => {
    expect(groupNames('Revenue grew 4% in the third quarter. Costs were flat.')).toEqual([]);
    expect(groupNames('We met the women. Revenue grew strongly.').some((n) => n.includes('revenue'))).toBe(false);
  });
  it('skip filler words between the group and its predicate', () => {
    expect(groupNames('Older people who rarely use apps struggle.')).toContain('G rarely use');
  });
  it('can be switched off; weights files written before the block existed load with it off', () => {
    expect(groupNames('Women rarely negotiate.', { ...DEFAULT_FEATURE_CONFIG, group: 0 })).toEqual([]);
    const { group: _g, groupWindow: _w, ...old } = DEFAULT_FEATURE_CONFIG;
    const w = new Float64Array(1 << 12).fill(0.01);
    const file = encodeWeights({ version: 'old', features: { ...old, hashBits: 12 }, bias: 0, w }, {});
    const model = decodeWeights(file);
    expect(model.features.group).toBe(0);
    const withBlock = decodeWeights({ ...file, features: { ...file.features, group: 1 } });
    expect(scoreWith(model, 'Women rarely negotiate.')).not.toBe(scoreWith(withBlock, 'Women rarely negotiate.'));
  });
});
