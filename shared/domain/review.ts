// Pure validation of a human review (FR-BIAS-4.6.2): tags from the controlled vocabulary, verdict consistency.
import type { FieldIssue } from '../errors';

export interface ReviewDraft {
  humanReviewed: boolean;
  verdict: 'CONFIRMED' | 'DISMISSED' | null;
  humanBiasTag: unknown;
  reviewNotes: string | null;
}

export const MAX_REVIEW_NOTES = 5_000;
export const MAX_REVIEW_TAGS = 20;

/** human_bias_tag is JSON in the FSD; we accept a key or a list of keys (or {tags: [...]}) and store a list. */
export function normaliseTags(tag: unknown): { tags: string[] | null; issues: FieldIssue[] } {
  if (tag === null || tag === undefined) return { tags: null, issues: [] };
  const raw = typeof tag === 'string' ? [tag] : Array.isArray(tag) ? tag : typeof tag === 'object' && Array.isArray((tag as { tags?: unknown }).tags) ? (tag as { tags: unknown[] }).tags : null;
  if (!raw || !raw.every((t): t is string => typeof t === 'string')) {
    return { tags: null, issues: [{ path: 'humanBiasTag', message: 'must be a taxonomy key or a list of taxonomy keys' }] };
  }
  if (raw.length > MAX_REVIEW_TAGS) return { tags: null, issues: [{ path: 'humanBiasTag', message: `at most ${MAX_REVIEW_TAGS} tags` }] };
  return { tags: [...new Set(raw.map((t) => t.trim()))], issues: [] };
}

export function validateReview(draft: ReviewDraft, taxonomyKeys: ReadonlySet<string>): { tags: string[] | null; issues: FieldIssue[] } {
  const { tags, issues } = normaliseTags(draft.humanBiasTag);
  for (const t of tags ?? []) {
    if (!taxonomyKeys.has(t)) issues.push({ path: 'humanBiasTag', message: `unknown bias key "${t.slice(0, 64)}" (not in the taxonomy)` });
  }
  if (draft.verdict && !draft.humanReviewed) issues.push({ path: 'verdict', message: 'a verdict needs humanReviewed: true' });
  if (draft.reviewNotes && draft.reviewNotes.length > MAX_REVIEW_NOTES) issues.push({ path: 'reviewNotes', message: `must be at most ${MAX_REVIEW_NOTES} characters` });
  return { tags, issues };
}
