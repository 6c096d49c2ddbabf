// Domain rules: declarative, per-tenant JSON rules (DomainRule, validated with zod). A rule fires on a sentence
// when every `all` group has a match in that sentence and no `unless` pattern does. Rules are data, not code.
import type { Finding } from '../../../schemas/analysis';
import { DomainRule } from '../../../schemas/analyzer-config';
import type { Detector, PreparedText } from '../detector';
import defaults from '../rules/default-rules.json';
import { span } from '../text';

export const DOMAIN_RULES_VERSION = '1.0.0';

/** The shipped default rule set, validated at load (a bad file fails fast at cold start). */
export const DEFAULT_RULES: readonly DomainRule[] = Object.freeze(DomainRule.array().parse(defaults));

// Compiled patterns, shared across requests and tenants (bounded: tenant rules are capped at 200).
const compiled = new Map<string, RegExp>();
function re(pattern: string): RegExp {
  let r = compiled.get(pattern);
  if (!r) {
    r = new RegExp(pattern, 'iu');
    if (compiled.size > 5000) compiled.clear();
    compiled.set(pattern, r);
  }
  return r;
}

export function detectDomainRules(doc: PreparedText, rules: readonly DomainRule[]): Finding[] {
  const out: Finding[] = [];
  for (const rule of rules) {
    if (!rule.enabled) continue;
    for (const s of doc.sentences) {
      const hits: [number, number][] = [];
      let ok = true;
      for (const group of rule.all) {
        let hit: RegExpExecArray | null = null;
        for (const p of group) {
          hit = re(p).exec(s.text);
          if (hit) break;
        }
        if (!hit) {
          ok = false;
          break;
        }
        hits.push([s.start + hit.index, s.start + hit.index + hit[0].length]);
      }
      if (!ok || rule.unless.some((p) => re(p).test(s.text))) continue;
      out.push({
        detector: 'domain_rules',
        detector_version: DOMAIN_RULES_VERSION,
        bias_type: rule.bias_type,
        score: rule.score,
        explanation: `Rule ${rule.id}: ${rule.description}`,
        spans: [span(doc.text, s.start, s.end), ...hits.map(([a, b]) => span(doc.text, a, b))],
        ...(rule.mitigation ? { suggestion: rule.mitigation } : {}),
        metric: 'domain_rule_score',
      });
    }
  }
  return out;
}

export const domainRulesDetector: Detector = {
  name: 'domain_rules',
  version: DOMAIN_RULES_VERSION,
  detect: (doc, settings) => detectDomainRules(doc, settings.rules),
};
