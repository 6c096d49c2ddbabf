import { z } from 'zod';
import type { FieldIssue } from '../errors';

/** Identifiers end up in Firestore document paths: keep them path-safe and bounded. */
export const Id = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:@-]*$/, 'must be 1-128 characters of letters, digits, _ . : @ - and start with a letter or digit');

export const IsoDateTime = z.iso.datetime({ offset: true });

/** Arbitrary JSON object, bounded in nesting so hostile input cannot blow the stack. */
export const JsonObject = z.record(z.string(), z.unknown());

export function toFieldIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}
