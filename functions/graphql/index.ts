// graphql: the GraphQL API (audits, review, taxonomy, tenant rules). The server lives in shared/graphql.
import { http } from '@google-cloud/functions-framework';
import { createAppContext } from '../../shared/app/context';
import { graphqlDeps } from '../../shared/graphql/deps';
import { graphqlHttpHandler } from '../../shared/graphql/http';
import { createGraphqlServer } from '../../shared/graphql/server';

export const yoga = createGraphqlServer(graphqlDeps(createAppContext('graphql')));

http('graphql', graphqlHttpHandler(yoga));
