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

/** Nesting beyond this is refused before schema validation (recursive code downstream would overflow the stack). */
export const MAX_JSON_DEPTH = 64;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s: string) => !LONE_SURROGATE.test(s);

/**
 * Finds what a parsed JSON value must not carry into the system: nesting deeper than `maxDepth`, or strings (keys
 * included) that are not well-formed UTF-16 (lone surrogates, which Firestore refuses). Iterative, so a 10k-deep
 * value cannot overflow the stack here. Returns a message, or undefined when the value is fine.
 */
export function jsonHazard(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (!wellFormed(v)) return 'contains a string that is not valid Unicode (lone surrogate)';
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= maxDepth) return `is nested deeper than ${maxDepth} levels`;
    if (Array.isArray(v)) for (const item of v) stack.push([item, depth + 1]);
    else
      for (const [k, item] of Object.entries(v)) {
        if (!wellFormed(k)) return 'contains a key that is not valid Unicode (lone surrogate)';
        stack.push([item, depth + 1]);
      }
  }
  return undefined;
}
