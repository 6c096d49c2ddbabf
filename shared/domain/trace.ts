import { randomBytes } from 'node:crypto';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Trace id from a W3C traceparent header; undefined when absent or invalid (the all-zero id is invalid). */
export function traceIdFromTraceparent(header: string | undefined | null): string | undefined {
  if (!header) return undefined;
  const match = TRACEPARENT.exec(header.trim().toLowerCase());
  const id = match?.[1];
  return id && !/^0+$/.test(id) ? id : undefined;
}

export const newTraceId = () => randomBytes(16).toString('hex');
