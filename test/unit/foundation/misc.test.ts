import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../shared/config';
import { canonicalJson } from '../../../shared/domain/canonical-json';
import { cronMatches, parseCron } from '../../../shared/domain/cron';
import { newTraceId, traceIdFromTraceparent } from '../../../shared/domain/trace';
import { createLogger } from '../../../shared/logging';

describe('trace ids', () => {
  it('reads a W3C traceparent and rejects malformed or all-zero ids', () => {
    expect(traceIdFromTraceparent('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(traceIdFromTraceparent('00-00000000000000000000000000000000-00f067aa0ba902b7-01')).toBeUndefined();
    expect(traceIdFromTraceparent('garbage')).toBeUndefined();
    expect(traceIdFromTraceparent(undefined)).toBeUndefined();
    expect(newTraceId()).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('canonical JSON', () => {
  it('orders keys at every level and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: undefined }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"z":1}]},"b":1}');
  });
});

describe('config', () => {
  it('applies defaults and fails fast with the offending variable', () => {
    const c = loadConfig({ AUTH_HS256_SECRET: 'x'.repeat(32) });
    expect(c.GCLOUD_PROJECT).toBe('demo-bias-monitor');
    expect(c.PUBSUB_MAX_DELIVERY_ATTEMPTS).toBe(5);
    expect(() => loadConfig({ AUTH_HS256_SECRET: 'short' })).toThrow(/AUTH_HS256_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', FAULT_INJECTION: 'true', AUTH_HS256_SECRET: 'x'.repeat(32) })).toThrow(/FAULT_INJECTION/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_JWKS_URL/);
  });

  it('is the only module that reads process.env', () => {
    const files = execFileSync('git', ['ls-files', 'shared', 'functions'], { encoding: 'utf8' }).split('\n').filter((f) => f.endsWith('.ts'));
    const readers = files.filter((f) => f !== 'shared/config.ts' && /process\.env/.test(readFileSync(f, 'utf8').replace(/\/\/.*$/gm, '')));
    expect(readers).toEqual([]);
  });
});

describe('cron', () => {
  it('matches minutes, hours, steps, lists and ranges in UTC', () => {
    expect(cronMatches('15 2 * * *', new Date('2026-11-22T02:15:00Z'))).toBe(true);
    expect(cronMatches('15 2 * * *', new Date('2026-11-22T03:15:00Z'))).toBe(false);
    expect(cronMatches('*/5 * * * *', new Date('2026-11-22T03:20:00Z'))).toBe(true);
    expect(cronMatches('*/5 * * * *', new Date('2026-11-22T03:21:00Z'))).toBe(false);
    expect(cronMatches('0 9 * * 1-5', new Date('2026-11-22T09:00:00Z'))).toBe(false); // a Sunday
    expect(parseCron('0,30 * * * 7').dow.has(0)).toBe(true);
    expect(() => parseCron('61 * * * *')).toThrow(/invalid cron/);
  });
});

describe('structured logs', () => {
  it('writes Cloud Logging JSON with the trace field', () => {
    const lines: string[] = [];
    const log = createLogger({ projectId: 'p', component: 'c', write: (l) => lines.push(l) }).child({ traceId: 'abc' });
    log.info('hello', { count: 2 });
    log.debug('hidden');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({ severity: 'INFO', message: 'hello', time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), component: 'c', count: 2, 'logging.googleapis.com/trace': 'projects/p/traces/abc' });
  });
});
