// Council disagreement (diagnostic only; never flips bias_detected by itself). Improves on the lexicon backend
// of the reference CouncilEx.BiasDetector: group mentions come from the group recogniser (whole words and
// descriptor + person noun, so "he" inside "the" or "Christmas" does not count), tenants can extend the lexicon
// per axis, and content disagreement is 1 - mean pairwise Jaccard over all member pairs (identical answers
// count as agreement instead of being skipped).
import type { Finding } from '../../../schemas/analysis';
import type { Detector, PreparedText } from '../detector';
import { AXES, findGroupMentions } from '../groups';
import { escapeRe, matchesOf, round4 } from '../text';

export const COUNCIL_VERSION = '1.0.0';

export interface CouncilAxisScore {
  axis: string;
  /** Population variance of per-member coverage rates (distinct groups / max over members), x4 to [0, 1]. */
  coverage_variance: number;
  evidence: { member_id: string; terms: string[] }[];
}
export interface CouncilReport {
  members: number;
  axes: CouncilAxisScore[];
  /** 1 - mean pairwise Jaccard similarity of token sets (0 = identical, 1 = no overlap). */
  baseline_disagreement: number;
  flagged_axes: string[];
}

const tokens = (s: string) => new Set(s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));

export function coverageVariance(counts: number[]): number {
  if (counts.length < 2) return 0;
  const max = Math.max(...counts);
  if (max === 0) return 0;
  const rates = counts.map((c) => c / max);
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  const variance = rates.reduce((a, r) => a + (r - mean) ** 2, 0) / rates.length; // population variance, documented
  return Math.min(1, variance * 4);
}

export function baselineDisagreement(texts: string[]): number {
  if (texts.length < 2) return 0;
  const sets = texts.map(tokens);
  let sum = 0;
  let n = 0;
  for (let i = 0; i < sets.length; i++)
    for (let j = i + 1; j < sets.length; j++) {
      const a = sets[i]!;
      const b = sets[j]!;
      let inter = 0;
      for (const t of a) if (b.has(t)) inter++;
      const union = a.size + b.size - inter;
      sum += union === 0 ? 1 : inter / union;
      n++;
    }
  return round4(1 - sum / n);
}

export function analyzeCouncil(members: { member_id: string; response: string }[], extraLexicon: Record<string, string[]> = {}, threshold = 0.15): CouncilReport {
  const extra = Object.entries(extraLexicon).map(([axis, terms]) => ({ axis, re: terms.length ? new RegExp(`\\b(?:${terms.map(escapeRe).join('|')})\\b`, 'giu') : null }));
  const perMember = members.map((m) => {
    const byAxis = new Map<string, Set<string>>();
    for (const g of findGroupMentions(m.response)) {
      const set = byAxis.get(g.axis) ?? new Set();
      set.add(g.group);
      byAxis.set(g.axis, set);
    }
    for (const { axis, re } of extra) {
      if (!re) continue;
      for (const x of matchesOf(re, m.response)) {
        const set = byAxis.get(axis) ?? new Set();
        set.add(`${axis}:${x[0].toLowerCase()}`);
        byAxis.set(axis, set);
      }
    }
    return { id: m.member_id, byAxis };
  });
  const axisNames = [...new Set([...AXES, ...extra.map((e) => e.axis)])];
  const axes = axisNames
    .map((axis) => {
      const counts = perMember.map((p) => p.byAxis.get(axis)?.size ?? 0);
      return {
        axis,
        coverage_variance: round4(coverageVariance(counts)),
        evidence: perMember.filter((p) => (p.byAxis.get(axis)?.size ?? 0) > 0).map((p) => ({ member_id: p.id, terms: [...p.byAxis.get(axis)!].map((g) => g.split(':')[1] ?? g) })),
      };
    })
    .filter((a) => a.evidence.length > 0)
    .sort((a, b) => b.coverage_variance - a.coverage_variance);
  return {
    members: members.length,
    axes,
    baseline_disagreement: baselineDisagreement(members.map((m) => m.response)),
    flagged_axes: axes.filter((a) => a.coverage_variance >= threshold).map((a) => a.axis),
  };
}

export function detectCouncil(doc: PreparedText, extraLexicon: Record<string, string[]>, threshold: number): { findings: Finding[]; report: CouncilReport | null } {
  const members = doc.councilResponses ?? [];
  if (members.length < 2) return { findings: [], report: null };
  const report = analyzeCouncil(members, extraLexicon, threshold);
  const findings = report.axes
    .filter((a) => a.coverage_variance >= threshold)
    .map<Finding>((a) => ({
      detector: 'council_disagreement',
      detector_version: COUNCIL_VERSION,
      bias_type: [...(AXES as readonly string[]).includes(a.axis) ? [a.axis] : [], 'representation'],
      score: a.coverage_variance,
      explanation: `Council members cover the ${a.axis} axis unevenly (coverage variance ${a.coverage_variance}; content disagreement baseline ${report.baseline_disagreement}). Diagnostic only.`,
      spans: [],
      metric: 'council_coverage_variance',
    }));
  return { findings, report };
}

export const councilDetector: Detector = {
  name: 'council_disagreement',
  version: COUNCIL_VERSION,
  detect: (doc, settings) => detectCouncil(doc, settings.council.extraLexicon, settings.council.coverageVarianceThreshold).findings,
};
