// The one HTTP error mapper, and a wrapper that keeps function handlers to parsing and delegation.
import type { Request, Response } from '@google-cloud/functions-framework';
import { z } from 'zod';
import { AppError, isAppError, validationFailed, type ErrorCode } from '../errors';
import type { Logger } from '../logging';
import { toFieldIssues } from '../schemas/common';
import { bodyParseError, installJsonBodyErrorCapture, jsonHazard } from './json-body';

installJsonBodyErrorCapture();

const STATUS: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  BIAS_ANALYSIS_FAILED: 502,
  TRANSIENT: 503,
};

export function sendError(res: Response, error: unknown, log: Logger) {
  if (isAppError(error)) {
    const status = STATUS[error.code];
    if (status >= 500) log.error('request failed', { code: error.code, error: error.cause ?? error });
    res.status(status).json({ error: { code: error.code, message: error.message, issues: error.issues } });
    return;
  }
  log.error('unexpected error', { error });
  res.status(500).json({ error: { code: 'INTERNAL', message: 'internal error' } });
}

export function parseBody<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  const parseError = bodyParseError(req);
  if (parseError) throw validationFailed([{ path: '', message: parseError }]);
  const body: unknown = req.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationFailed([{ path: '', message: 'body must be a JSON object (Content-Type: application/json)' }]);
  }
  const hazard = jsonHazard(body);
  if (hazard) throw validationFailed([{ path: '', message: `body ${hazard}` }]);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationFailed(toFieldIssues(parsed.error));
  return parsed.data;
}

export interface Route {
  method: 'POST' | 'GET';
  path: string;
  handle: (req: Request, res: Response) => Promise<void>;
}

/** An HTTP function with a few routes; unknown routes are 404, other methods 405, errors mapped once. */
export function httpRoutes(routes: Route[], log: Logger, bodyLimitBytes: number) {
  return async (req: Request, res: Response) => {
    try {
      const length = Number(req.headers['content-length'] ?? 0);
      if (length > bodyLimitBytes) {
        throw new AppError('PAYLOAD_TOO_LARGE', `body is ${length} bytes; the limit is ${bodyLimitBytes}`);
      }
      const path = req.path.replace(/\/+$/, '') || '/';
      const matching = routes.filter((r) => r.path === path);
      if (matching.length === 0) throw new AppError('NOT_FOUND', `no route ${path}`);
      const route = matching.find((r) => r.method === req.method);
      if (!route) {
        res.set('Allow', matching.map((r) => r.method).join(', '));
        res.status(405).json({ error: { code: 'METHOD_NOT_ALLOWED', message: `use ${matching.map((r) => r.method).join(' or ')}` } });
        return;
      }
      await route.handle(req, res);
    } catch (e) {
      sendError(res, e, log);
    }
  };
}
