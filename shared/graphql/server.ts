/* eslint-disable @typescript-eslint/no-explicit-any */
// Builds the GraphQL server (graphql-yoga 5). functions/graphql/index.ts only registers it; tests import it.
// Order of defences: bearer token verified before parsing (UNAUTHENTICATED, HTTP 401); depth, cost, alias,
// directive and token limits and the introspection ban run as validation rules, before any resolver; resolvers
// check roles and take the tenant from the token only; errors are masked to stable extensions.code values.
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { NoSchemaIntrospectionCustomRule } from './graphql-js';
import { createSchema, createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { Principal } from '../auth/tokens';
import { isAppError, unauthenticated } from '../errors';
import { appErrorToGraphQL, createMaskError, requestCode } from './errors';
import { createRequestContext, type GraphqlDeps, type RequestContext } from './context';
import { resolvers } from './resolvers';
import { typeDefs } from './schema';

export type { GraphqlDeps } from './context';

export interface GraphqlServerOptions {
  /** URL pattern the server answers on; the function answers on `/` and `/graphql`. */
  graphqlEndpoint?: string;
}

export const introspectionEnabled = (c: GraphqlDeps['config']) =>
  c.NODE_ENV !== 'production' && (c.GRAPHQL_INTROSPECTION || c.NODE_ENV === 'development');

export type GraphqlServer = YogaServerInstance<Record<string, any>, RequestContext>;

export function createGraphqlServer(deps: GraphqlDeps, opts: GraphqlServerOptions = {}): GraphqlServer {
  const production = deps.config.NODE_ENV === 'production';
  const principals = new WeakMap<Request, Principal>();

  const authenticate: Plugin = {
    async onParams({ request, setResult }) {
      try {
        principals.set(request, await deps.verifier.verify(request.headers.get('authorization')));
      } catch (e) {
        const error = appErrorToGraphQL(e) ?? appErrorToGraphQL(unauthenticated());
        setResult({ errors: [error!] });
      }
    },
  };

  const noIntrospection: Plugin = {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };

  // Validation errors (limits, introspection, unknown fields) get a specific stable code; yoga marks them
  // GRAPHQL_VALIDATION_FAILED before this hook runs.
  const codeValidationErrors: Plugin = {
    onValidate() {
      return ({ valid, result }) => {
        if (valid) return;
        for (const error of result) (error.extensions as Record<string, unknown>).code = requestCode(error.message);
      };
    },
  };

  const plugins: Plugin[] = [
    authenticate,
    codeValidationErrors,
    EnvelopArmorPlugin({
      maxDepth: { n: deps.config.GRAPHQL_MAX_DEPTH, ignoreIntrospection: true, flattenFragments: true },
      costLimit: { maxCost: deps.config.GRAPHQL_MAX_COST, objectCost: 2, scalarCost: 1, depthCostFactor: 1.5, ignoreIntrospection: true },
      maxAliases: { n: 15 },
      maxDirectives: { n: 20 },
      maxTokens: { n: 3000 },
      blockFieldSuggestion: { enabled: production },
    }) as Plugin,
  ];
  if (!introspectionEnabled(deps.config)) plugins.push(noIntrospection);

  return createYoga<Record<string, any>, RequestContext>({
    schema: createSchema<Record<string, any> & RequestContext>({ typeDefs, resolvers: resolvers as never }),
    graphqlEndpoint: opts.graphqlEndpoint ?? '/{graphql}?',
    graphiql: !production && introspectionEnabled(deps.config),
    landingPage: false,
    batching: false,
    maskedErrors: { maskError: createMaskError(deps.log) },
    logging: {
      debug: () => undefined,
      info: () => undefined,
      warn: (...args: unknown[]) => deps.log.warn('graphql warning', { detail: String(args[0]).slice(0, 200) }),
      error: (...args: unknown[]) => {
        const e = args[0] as (Error & { originalError?: unknown }) | undefined;
        const original = e?.originalError ?? e;
        // Refusals (AppError, input validation) are answers, not faults; unexpected errors are logged by maskError.
        if (isAppError(original) || (original instanceof Error && original.name === 'ZodError')) return;
        if (e instanceof Error && e.originalError === undefined) return;
        deps.log.error('graphql error', { error: e instanceof Error ? { name: e.name, message: e.message.slice(0, 200) } : String(e).slice(0, 200) });
      },
    },
    context: ({ request }): RequestContext => {
      const principal = principals.get(request);
      if (!principal) throw unauthenticated();
      return createRequestContext(deps, principal);
    },
    plugins,
  });
}
