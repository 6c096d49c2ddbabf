// Retention policy (FR-BIAS-4.7): which records to anonymise and which to roll up and purge, for a given clock.
// Ages are measured from `created_at`, the server time the audit was written (log_timestamp is client-supplied).
import { RetentionPolicy, type RetentionPolicy as Policy } from '../../schemas/retention';

export const DAY_MS = 86_400_000;

export type RetentionAction = 'keep' | 'anonymize' | 'purge';

/** The stored policy document, or the FR-BIAS-4.7 defaults when a tenant has none. Invalid documents throw. */
export const resolvePolicy = (doc: unknown): Policy => RetentionPolicy.parse(doc ?? {});

export const utcDay = (iso: string | Date) => new Date(iso).toISOString().slice(0, 10);
export const startOfUtcDay = (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));

export interface Cutoffs {
  /** Records created before this instant are past the anonymisation age. */
  anonymizeBefore: string;
  /**
   * Records created before this instant are rolled up and purged. Purging works on whole UTC days, so a day is
   * rolled up once, complete: this is the start of the UTC day that contains `now - purge_after_days`.
   * A record is therefore purged between `purge_after_days` and `purge_after_days + 1` days of age.
   */
  purgeBefore: string;
}

export function cutoffs(policy: Policy, now: Date): Cutoffs {
  const anonymize = new Date(now.getTime() - policy.anonymize_after_days * DAY_MS);
  const purge = startOfUtcDay(new Date(now.getTime() - policy.purge_after_days * DAY_MS));
  return { anonymizeBefore: anonymize.toISOString(), purgeBefore: purge.toISOString() };
}

/** What the policy says about one record now. Already-anonymised records are `keep` until they are due for purge. */
export function classify(record: { created_at: string; anonymized_at: string | null }, policy: Policy, now: Date): RetentionAction {
  const c = cutoffs(policy, now);
  const created = new Date(record.created_at).getTime();
  if (created < new Date(c.purgeBefore).getTime()) return 'purge';
  if (created < new Date(c.anonymizeBefore).getTime() && record.anonymized_at === null) return 'anonymize';
  return 'keep';
}

/** [start, end) of a UTC day given as YYYY-MM-DD, as ISO instants comparable with created_at. */
export function dayRange(day: string): { start: string; end: string } {
  const start = new Date(`${day}T00:00:00.000Z`);
  return { start: start.toISOString(), end: new Date(start.getTime() + DAY_MS).toISOString() };
}
