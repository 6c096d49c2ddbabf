// functions-framework parses JSON bodies with body-parser before our handler runs, and a parse failure ends in
// Express's default HTML error page. Wrapping body-parser's json factory (before the framework builds its server,
// i.e. when a function module loads) turns that failure into a marker our handler maps to a JSON 400.
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';

type Next = (err?: unknown) => void;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

export const BODY_PARSE_ERROR = Symbol.for('bias-monitor.bodyParseError');

let installed = false;
export function installJsonBodyErrorCapture(): void {
  if (installed) return;
  installed = true;
  const ffRequire = createRequire(createRequire(import.meta.url).resolve('@google-cloud/functions-framework'));
  const bodyParser = ffRequire('body-parser') as { json: (opts: unknown) => Middleware };
  const original = bodyParser.json;
  bodyParser.json = (opts: unknown) => {
    const middleware = original(opts);
    return (req, res, next) =>
      middleware(req, res, (err?: unknown) => {
        const type = (err as { type?: string } | undefined)?.type;
        if (type === 'entity.parse.failed' || type === 'charset.unsupported' || type === 'encoding.unsupported') {
          (req as unknown as Record<symbol, string>)[BODY_PARSE_ERROR] =
            type === 'entity.parse.failed' ? 'body is not valid JSON' : 'body encoding or charset is not supported';
          (req as unknown as { body: unknown }).body = undefined;
          next();
          return;
        }
        next(err);
      });
  };
}

export const bodyParseError = (req: unknown): string | undefined => (req as Record<symbol, string | undefined>)[BODY_PARSE_ERROR];
