// Domain rules: declarative, per-tenant JSON rules (DomainRule, validated with zod). A rule fires on a sentence
// when every `all` group has a match in that sentence and no `unless` pattern does. Rules are data, not code.
import type { Finding } from '../../../schemas/analysis';
import { DomainRule } from '../../../schemas/analyzer-config';
import type { Detector, PreparedText } from '../detector';
import defaults from '../rules/default-rules.json';
import { factorWordBoundary, literalPrecheck, mayMatch, sentencesThatMayMatch, span } from '../text';

export const DOMAIN_RULES_VERSION = '1.0.0';

/** The shipped default rule set, validated at load (a bad file fails fast at cold start). */
export const DEFAULT_RULES: readonly DomainRule[] = Object.freeze(DomainRule.array().parse(defaults));

// Compiled patterns, shared across requests and tenants (bounded: tenant rules are capped at 200).
const compiled = new Map<string, RegExp>();
function re(pattern: string): RegExp {
  let r = compiled.get(pattern);
  if (!r) {
    r = factorWordBoundary(new RegExp(pattern, 'iu'));
    if (compiled.size > 5000) compiled.clear();
    compiled.set(pattern, r);
  }
  return r;
}

// Literal pre-checks of each `all` group (any of its patterns), shared like the compiled patterns.
const prechecks = new Map<string, RegExp | null>();
function groupPrecheck(group: readonly string[]): RegExp | null {
  const key = group.join('\u0000');
  let r = prechecks.get(key);
  if (r === undefined) {
    r = literalPrecheck(...group.map(re));
    if (prechecks.size > 5000) prechecks.clear();
    prechecks.set(key, r);
  }
  return r;
}

/**
 * Sentences where every `all` group may match. The first group's literals are searched once over the whole text,
 * the other groups' only in the sentences still possible.
 */
function groupsPossible(doc: PreparedText, all: readonly (readonly string[])[]): boolean[] {
  const possible = sentencesThatMayMatch(groupPrecheck(all[0]!), doc.text, doc.sentences);
  for (const group of all.slice(1)) {
    const precheck = groupPrecheck(group);
    if (!precheck) continue;
    let any = false;
    for (const s of doc.sentences) {
      if (!possible[s.index]) continue;
      possible[s.index] = mayMatch(precheck, s.text);
      any ||= possible[s.index]!;
    }
    if (!any) break;
  }
  return possible;
}

/** The first hit of any of a group's patterns in a sentence, as text offsets. */
function firstHit(group: readonly string[], s: { text: string; start: number }): [number, number] | null {
  for (const p of group) {
    const hit = re(p).exec(s.text);
    if (hit) return [s.start + hit.index, s.start + hit.index + hit[0].length];
  }
  return null;
}

function ruleFinding(doc: PreparedText, rule: DomainRule, start: number, end: number, hits: readonly [number, number][]): Finding {
  return {
    detector: 'domain_rules',
    detector_version: DOMAIN_RULES_VERSION,
    bias_type: rule.bias_type,
    score: rule.score,
    explanation: `Rule ${rule.id}: ${rule.description}`,
    spans: [span(doc.text, start, end), ...hits.map(([a, b]) => span(doc.text, a, b))],
    ...(rule.mitigation ? { suggestion: rule.mitigation } : {}),
    metric: 'domain_rule_score',
  };
}

/** A rule over a window of consecutive sentences: each group's first hit per sentence, then every window where all
 * groups hit and no `unless` pattern does. Windows that fire do not overlap. */
function detectInWindows(doc: PreparedText, rule: DomainRule, out: Finding[]): void {
  // a group whose literals occur nowhere in the text rules the rule out without running it
  for (const group of rule.all) {
    const precheck = groupPrecheck(group);
    if (precheck && !mayMatch(precheck, doc.text)) return;
  }
  const { sentences } = doc;
  const hitsBySentence = rule.all.map((group) => sentences.map((s) => firstHit(group, s)));
  for (let i = 0; i < sentences.length; i++) {
    const last = Math.min(sentences.length, i + rule.window) - 1;
    const hits: [number, number][] = [];
    for (const bySentence of hitsBySentence) {
      let hit: [number, number] | null = null;
      for (let j = i; j <= last && !hit; j++) hit = bySentence[j]!;
      if (!hit) break;
      hits.push(hit);
    }
    if (hits.length < rule.all.length) continue;
    const start = sentences[i]!.start;
    const end = sentences[last]!.end;
    const windowText = doc.text.slice(start, end);
    if (rule.unless.some((p) => re(p).test(windowText))) continue;
    out.push(ruleFinding(doc, rule, start, end, hits));
    i = last;
  }
}

export function detectDomainRules(doc: PreparedText, rules: readonly DomainRule[]): Finding[] {
  const out: Finding[] = [];
  for (const rule of rules) {
    if (!rule.enabled) continue;
    if (rule.window > 1) {
      detectInWindows(doc, rule, out);
      continue;
    }
    // Sentences where some `all` group cannot match (none of its patterns' literals occur) are skipped unrun.
    const possible = groupsPossible(doc, rule.all);
    for (const s of doc.sentences) {
      if (!possible[s.index]) continue;
      const hits: [number, number][] = [];
      for (const group of rule.all) {
        const hit = firstHit(group, s);
        if (!hit) break;
        hits.push(hit);
      }
      if (hits.length < rule.all.length || rule.unless.some((p) => re(p).test(s.text))) continue;
      out.push(ruleFinding(doc, rule, s.start, s.end, hits));
    }
  }
  return out;
}

export const domainRulesDetector: Detector = {
  name: 'domain_rules',
  version: DOMAIN_RULES_VERSION,
  detect: (doc, settings) => detectDomainRules(doc, settings.rules),
};
