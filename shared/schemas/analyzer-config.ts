// Per-tenant analyzer configuration, stored at `tenants/{tenantId}/config/analyzer` and edited by admins through
// GraphQL. Shared contract between the analyzer and the API: extend it, do not rename fields.
import { z } from 'zod';

export const DETECTOR_NAMES = ['language', 'stereotype', 'sentiment_disparity', 'toxicity', 'classifier', 'domain_rules', 'council_disagreement'] as const;
export const DetectorName = z.enum(DETECTOR_NAMES);
export type DetectorName = z.infer<typeof DetectorName>;

/** A declarative domain rule: data, not code. Fires when every `all` group has a match and no `unless` pattern does. */
export const DomainRule = z
  .object({
    id: z.string().regex(/^[a-z0-9_.-]{1,64}$/),
    bias_type: z.array(z.string().min(1)).min(1),
    description: z.string().min(1).max(500),
    /** Each inner array is a set of alternatives (case-insensitive regular expressions); every group must match
     * within `window` consecutive sentences. */
    all: z.array(z.array(z.string().min(1).max(300)).min(1)).min(1).max(8),
    /** Sentences the groups may spread over (1: one sentence). Advice often names the saving in one sentence and
     * the harm it dismisses in the next. `unless` is tested over the same sentences. */
    window: z.number().int().min(1).max(3).default(1),
    unless: z.array(z.string().min(1).max(300)).max(32).default([]),
    score: z.number().min(0).max(1).default(0.8),
    mitigation: z.string().max(500).optional(),
    enabled: z.boolean().default(true),
  })
  .strict()
  .superRefine((rule, ctx) => {
    for (const [i, pattern] of [...rule.all.flat(), ...rule.unless].entries()) {
      try {
        new RegExp(pattern, 'iu');
      } catch (e) {
        ctx.addIssue({ code: 'custom', path: ['all', i], message: `invalid regular expression: ${(e as Error).message}` });
      }
    }
  });
export type DomainRule = z.infer<typeof DomainRule>;

export const TenantAnalyzerConfig = z
  .object({
    /** Report bias when the calibrated probability reaches this value. The default is the decision model's
     * operating point: the most recall within 3% false positives (with a one-standard-error margin) on the spent
     * held-out sets and on ordinary clean fixtures, each scored by a cross-fitting model that never saw it (decision
     * records 021, 023 and 028). */
    detection_threshold: z.number().min(0).max(1).default(0.48),
    /** Per-detector minimum finding score; findings below are kept in the summary but do not flag. */
    detector_thresholds: z.partialRecord(DetectorName, z.number().min(0).max(1)).default({}),
    enabled_detectors: z.array(DetectorName).default([...DETECTOR_NAMES]),
    /** Words or phrases the tenant accepts (e.g. a product name that retext-equality would flag). */
    allow_list: z.array(z.string().min(1).max(100)).max(500).default([]),
    domain_rules: z.array(DomainRule).max(200).optional(),
    /** When true, the tenant's rules are added to the default rule set instead of replacing it. */
    extend_default_rules: z.boolean().default(true),
    council: z
      .object({ coverage_variance_threshold: z.number().min(0).default(0.15), extra_lexicon: z.record(z.string(), z.array(z.string())).default({}) })
      .strict()
      .default({ coverage_variance_threshold: 0.15, extra_lexicon: {} }),
    review_confidence_floor: z.number().min(0).max(1).default(0.32),
    /** Send responses in a language the detectors do not cover to human review (decision record 022). A tenant whose
     * traffic is mostly in such a language may turn this off and read `bias_report_summary.language` instead. */
    review_unsupported_language: z.boolean().default(true),
  })
  .strict();
export type TenantAnalyzerConfig = z.infer<typeof TenantAnalyzerConfig>;

export const defaultTenantAnalyzerConfig = (): TenantAnalyzerConfig => TenantAnalyzerConfig.parse({});
