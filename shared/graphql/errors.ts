// The GraphQL error mapper (one per transport, DESIGN.md 6): AppError codes become `extensions.code`; anything
// unexpected is masked to "Unexpected error." with code INTERNAL and logged without request content.
import { GraphQLError } from './graphql-js';
import { ZodError } from 'zod';
import { isAppError } from '../errors';
import type { Logger } from '../logging';
import { toFieldIssues } from '../schemas/common';

/** Codes for requests refused at validation, before any resolver runs. */
export const REQUEST_CODES = {
  depth: 'DEPTH_LIMIT_EXCEEDED',
  cost: 'COST_LIMIT_EXCEEDED',
  aliases: 'ALIAS_LIMIT_EXCEEDED',
  directives: 'DIRECTIVE_LIMIT_EXCEEDED',
  tokens: 'TOKEN_LIMIT_EXCEEDED',
  introspection: 'INTROSPECTION_DISABLED',
  invalid: 'GRAPHQL_VALIDATION_FAILED',
} as const;

export function requestCode(message: string): string {
  if (/depth limit/i.test(message)) return REQUEST_CODES.depth;
  if (/cost limit/i.test(message)) return REQUEST_CODES.cost;
  if (/aliases limit/i.test(message)) return REQUEST_CODES.aliases;
  if (/directives limit/i.test(message)) return REQUEST_CODES.directives;
  if (/token limit/i.test(message)) return REQUEST_CODES.tokens;
  if (/introspection/i.test(message)) return REQUEST_CODES.introspection;
  return REQUEST_CODES.invalid;
}

const HTTP_STATUS: Record<string, number> = { UNAUTHENTICATED: 401 };

export function appErrorToGraphQL(error: unknown, at?: GraphQLError): GraphQLError | null {
  const where = at ? { nodes: at.nodes ?? null, path: at.path ?? null, positions: at.positions ?? null, source: at.source ?? null } : {};
  if (isAppError(error)) {
    const status = HTTP_STATUS[error.code];
    return new GraphQLError(error.message, {
      ...where,
      extensions: { code: error.code, ...(error.issues.length ? { issues: error.issues } : {}), ...(status ? { http: { status } } : {}) },
    });
  }
  if (error instanceof ZodError) {
    const issues = toFieldIssues(error);
    return new GraphQLError(issues.map((i) => `${i.path || '(input)'}: ${i.message}`).join('; '), { ...where, extensions: { code: 'VALIDATION_FAILED', issues } });
  }
  return null;
}

export function createMaskError(log: Logger) {
  return (error: unknown): Error => {
    const gqlError = error instanceof GraphQLError ? error : undefined;
    const original = gqlError?.originalError ?? error;
    const mapped = appErrorToGraphQL(original, gqlError);
    if (mapped) return mapped;
    if (original instanceof GraphQLError) {
      // Parse, validation and variable-coercion errors: safe to show, given a stable code.
      if (typeof original.extensions?.code === 'string' && original.extensions.code !== 'GRAPHQL_VALIDATION_FAILED') return original;
      return new GraphQLError(original.message, {
        nodes: original.nodes ?? null,
        positions: original.positions ?? null,
        source: original.source ?? null,
        path: original.path ?? null,
        extensions: { ...original.extensions, code: requestCode(original.message) },
      });
    }
    log.error('unexpected error in a resolver', { error: original instanceof Error ? { name: original.name, message: original.message } : String(original), path: gqlError?.path?.join('.') });
    return new GraphQLError('Unexpected error.', { path: gqlError?.path ?? null, extensions: { code: 'INTERNAL' } });
  };
}
