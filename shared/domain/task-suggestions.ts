// Pure rules of FR-BIAS-4.6.4 task suggestions: what a "domain" is, which window a signal falls in, and the id
// that makes a suggestion unique per (bias type, domain, window).
import type { AuditRecord } from '../schemas/audit';

const clean = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);

/** query_context.domain when the caller set one, else the operation, else "general". */
export function domainOf(audit: Pick<AuditRecord, 'query_context' | 'operation'>): string {
  const ctx = audit.query_context;
  if (ctx && typeof ctx === 'object' && typeof ctx.domain === 'string' && clean(ctx.domain)) return clean(ctx.domain);
  if (audit.operation && clean(audit.operation)) return clean(audit.operation);
  return 'general';
}

/** Fixed windows of `days` days aligned on the Unix epoch (UTC), so every writer agrees on the boundaries. */
export function windowOf(at: string | Date, days: number): { start: string; end: string } {
  const ms = days * 86_400_000;
  const t = new Date(at).getTime();
  const start = Math.floor(t / ms) * ms;
  return { start: new Date(start).toISOString(), end: new Date(start + ms).toISOString() };
}

export const suggestionId = (biasType: string, domain: string, windowStart: string) => `${biasType}:${domain}:${windowStart.slice(0, 10)}`;

/** Suggest once the count of distinct audits reaches the threshold within the window. */
export const reachesThreshold = (count: number, threshold: number) => count >= threshold;
