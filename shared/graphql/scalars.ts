import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped } from './graphql-js';

const bad = (message: string) => new GraphQLError(message, { extensions: { code: 'VALIDATION_FAILED' } });

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function parseDate(v: unknown): string {
  if (typeof v !== 'string' || !ISO.test(v) || Number.isNaN(Date.parse(v))) {
    throw bad('DateTime must be an ISO-8601 date-time with a time zone, e.g. 2026-11-22T10:00:00Z');
  }
  return new Date(v).toISOString();
}

export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'ISO-8601 date-time (UTC on output).',
  serialize: (v) => (v instanceof Date ? v.toISOString() : typeof v === 'string' ? new Date(v).toISOString() : null),
  parseValue: parseDate,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw bad('DateTime must be a string');
    return parseDate(ast.value);
  },
});
