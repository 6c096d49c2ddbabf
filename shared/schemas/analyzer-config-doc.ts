// Firestore cannot store an array directly inside an array, and DomainRule.all is string[][]. The stored form of
// `tenants/{t}/config/analyzer` therefore writes each `all` group as {any: string[]}; every reader decodes with
// fromAnalyzerConfigDoc before TenantAnalyzerConfig.parse. A config without domain rules is stored unchanged.
import type { TenantAnalyzerConfig } from './analyzer-config';

export function toAnalyzerConfigDoc(config: TenantAnalyzerConfig): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(config)) as Record<string, unknown>;
  if (Array.isArray(plain.domain_rules)) {
    plain.domain_rules = (plain.domain_rules as Record<string, unknown>[]).map((r) => ({ ...r, all: (r.all as string[][]).map((any) => ({ any })) }));
  }
  return plain;
}

/** Accepts both the stored form and the plain schema form (idempotent). */
export function fromAnalyzerConfigDoc(data: unknown): unknown {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return data;
  const doc = data as Record<string, unknown>;
  if (!Array.isArray(doc.domain_rules)) return doc;
  return {
    ...doc,
    domain_rules: doc.domain_rules.map((r) => {
      if (!r || typeof r !== 'object' || !Array.isArray((r as { all?: unknown }).all)) return r;
      const rule = r as { all: unknown[] };
      return { ...rule, all: rule.all.map((g) => (g && typeof g === 'object' && !Array.isArray(g) && Array.isArray((g as { any?: unknown }).any) ? (g as { any: unknown[] }).any : g)) };
    }),
  };
}
