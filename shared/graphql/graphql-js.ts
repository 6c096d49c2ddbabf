// graphql-js must be one instance: graphql-yoga, @graphql-tools and graphql-armor load it with require() (the
// CommonJS build), while bundler-style resolvers (vitest, esbuild) would give our ESM source the `module` build,
// and graphql refuses types from "another realm". Loading it with require() here keeps every caller on one copy.
import { createRequire } from 'node:module';
import type * as GraphQL from 'graphql';

const require = createRequire(import.meta.url);
const graphql = require('graphql') as typeof GraphQL;

export const { GraphQLError, GraphQLScalarType, Kind, NoSchemaIntrospectionCustomRule, valueFromASTUntyped } = graphql;
export type GraphQLError = GraphQL.GraphQLError;
