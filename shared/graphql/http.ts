// HTTP front of the GraphQL function: answers what functions-framework or routing would otherwise answer with
// Express HTML (invalid JSON, unknown paths) as GraphQL-shaped JSON errors with a stable extensions.code.
import type { Request, Response } from '@google-cloud/functions-framework';
import { bodyParseError, installJsonBodyErrorCapture } from '../transport/json-body';

installJsonBodyErrorCapture();

const GRAPHQL_PATHS = new Set(['/', '/graphql']);

export function graphqlHttpHandler(yoga: (req: Request, res: Response) => unknown) {
  return (req: Request, res: Response) => {
    const path = req.path.replace(/\/+$/, '') || '/';
    if (!GRAPHQL_PATHS.has(path)) {
      res.status(404).json({ errors: [{ message: `no GraphQL endpoint at ${path}; use /graphql`, extensions: { code: 'NOT_FOUND' } }] });
      return;
    }
    const parseError = bodyParseError(req);
    if (parseError) {
      res.status(400).json({ errors: [{ message: parseError, extensions: { code: 'VALIDATION_FAILED' } }] });
      return;
    }
    // GraphQL over HTTP takes a JSON body; yoga would answer anything else with an empty 415.
    if (req.method === 'POST' && (req.body === null || typeof req.body !== 'object' || Buffer.isBuffer(req.body))) {
      res.status(415).json({ errors: [{ message: 'send the request as Content-Type: application/json', extensions: { code: 'VALIDATION_FAILED' } }] });
      return;
    }
    return yoga(req, res);
  };
}
