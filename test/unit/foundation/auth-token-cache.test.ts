// The verified-token cache (decision 070): never past exp or maxAge, bounded, keyed by the exact token, tenant
// always from the token's own verified claims, failures never cached.
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenVerifier, mintDevToken, VerifiedTokenCache, type Principal } from '../../../shared/auth/tokens';
import { loadConfig } from '../../../shared/config';

const config = loadConfig({ AUTH_HS256_SECRET: 'unit-test-secret-unit-test-secret-0123456789' });
const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

function clock(start = T0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** A token issued at the clock's time (jose stamps iat/exp from the real clock, so set them explicitly). */
const token = (tenantId: string, role: 'viewer' | 'service' | 'admin', expSeconds: number, extra: { nbf?: number; secret?: string } = {}) => {
  const jwt = new SignJWT({ tenant_id: tenantId, role })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`${role}@${tenantId}`)
    .setIssuer(config.AUTH_ISSUER)
    .setAudience(config.AUTH_AUDIENCE)
    .setIssuedAt(Math.floor(T0 / 1000))
    .setExpirationTime(expSeconds);
  if (extra.nbf !== undefined) jwt.setNotBefore(extra.nbf);
  return jwt.sign(new TextEncoder().encode(extra.secret ?? config.AUTH_HS256_SECRET!));
};
const bearer = (t: string) => `Bearer ${t}`;
const sec = (ms: number) => Math.floor(ms / 1000);

describe('createTokenVerifier with the verified-token cache', () => {
  it('verifies a token once and answers repeats from the cache with the same principal', async () => {
    const c = clock();
    const v = createTokenVerifier(config, { now: c.now });
    const t = await token('acme', 'service', sec(T0) + 3600);
    const first = await v.verify(bearer(t));
    const again = await v.verify(`bearer   ${t}  `);
    expect(first).toEqual({ subject: 'service@acme', tenantId: 'acme', role: 'service' });
    expect(again).toEqual(first);
    expect(v.stats).toMatchObject({ verifications: 1, hits: 1, cached: 1 });
  });

  it('refuses a cached token once its exp has passed (same rule as jose: valid while now < exp)', async () => {
    const c = clock();
    const v = createTokenVerifier(config, { now: c.now });
    const exp = sec(T0) + 10;
    const t = await token('acme', 'viewer', exp);
    await v.verify(bearer(t));
    c.advance(9_999 - (T0 % 1000)); // still inside second exp-1
    await expect(v.verify(bearer(t))).resolves.toMatchObject({ tenantId: 'acme' });
    expect(v.stats.hits).toBe(1);
    c.advance(1); // now == exp (in seconds): expired for jose, so for the cache too
    await expect(v.verify(bearer(t))).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'token expired' });
    expect(v.stats).toMatchObject({ hits: 1, verifications: 2, cached: 0 });
  });

  it('re-verifies after maxAgeMs even when exp is later', async () => {
    const c = clock();
    const v = createTokenVerifier(config, { now: c.now, cache: { maxAgeMs: 60_000 } });
    const t = await token('acme', 'viewer', sec(T0) + 3600);
    await v.verify(bearer(t));
    c.advance(59_999);
    await v.verify(bearer(t));
    expect(v.stats).toMatchObject({ hits: 1, verifications: 1 });
    c.advance(1);
    await v.verify(bearer(t));
    expect(v.stats).toMatchObject({ hits: 1, verifications: 2 });
  });

  it('keeps tenants apart: each token answers with its own verified tenant and role', async () => {
    const v = createTokenVerifier(config, { now: clock().now });
    const a = await token('tenant-a', 'admin', sec(T0) + 3600);
    const b = await token('tenant-b', 'viewer', sec(T0) + 3600);
    for (let i = 0; i < 3; i++) {
      expect(await v.verify(bearer(a))).toMatchObject({ tenantId: 'tenant-a', role: 'admin' });
      expect(await v.verify(bearer(b))).toMatchObject({ tenantId: 'tenant-b', role: 'viewer' });
    }
    expect(v.stats).toMatchObject({ verifications: 2, hits: 4, cached: 2 });
  });

  it('never serves a cached principal for a different token string (tampered signature or payload)', async () => {
    const v = createTokenVerifier(config, { now: clock().now });
    const good = await token('acme', 'viewer', sec(T0) + 3600);
    await v.verify(bearer(good));
    const [h, p, s] = good.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), tenant_id: 'victim' })).toString('base64url');
    await expect(v.verify(bearer(`${h}.${forgedPayload}.${s}`))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const flipped = s!.slice(0, -2) + (s!.endsWith('AA') ? 'AB' : 'AA');
    await expect(v.verify(bearer(`${h}.${p}.${flipped}`))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const otherKey = await token('acme', 'viewer', sec(T0) + 3600, { secret: 'another-secret-another-secret-0123456789' });
    await expect(v.verify(bearer(otherKey))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(v.stats).toMatchObject({ hits: 0, cached: 1 });
  });

  it('does not cache rejections: a not-yet-valid token is accepted once its nbf arrives', async () => {
    const c = clock();
    const v = createTokenVerifier(config, { now: c.now });
    const t = await token('acme', 'viewer', sec(T0) + 3600, { nbf: sec(T0) + 30 });
    await expect(v.verify(bearer(t))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(v.stats.cached).toBe(0);
    c.advance(31_000);
    await expect(v.verify(bearer(t))).resolves.toMatchObject({ tenantId: 'acme' });
  });

  it('checks issuer and audience before caching (a verifier with other expectations refuses the token)', async () => {
    const t = await token('acme', 'viewer', sec(T0) + 3600);
    const other = createTokenVerifier(loadConfig({ AUTH_HS256_SECRET: config.AUTH_HS256_SECRET, AUTH_AUDIENCE: 'someone-else' }), { now: clock().now });
    await expect(other.verify(bearer(t))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(other.verify(bearer(t))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(other.stats).toMatchObject({ hits: 0, verifications: 2, cached: 0 });
  });

  it('stays bounded: the least recently used token is evicted and verified again', async () => {
    const v = createTokenVerifier(config, { now: clock().now, cache: { maxEntries: 2 } });
    const [a, b, c] = await Promise.all(['t1', 't2', 't3'].map((t) => token(t, 'viewer', sec(T0) + 3600)));
    await v.verify(bearer(a!));
    await v.verify(bearer(b!));
    await v.verify(bearer(a!)); // a is now the most recently used
    await v.verify(bearer(c!)); // evicts b
    expect(v.stats).toMatchObject({ verifications: 3, hits: 1, cached: 2 });
    await v.verify(bearer(a!));
    expect(v.stats.hits).toBe(2);
    expect(await v.verify(bearer(b!))).toMatchObject({ tenantId: 't2' });
    expect(v.stats).toMatchObject({ verifications: 4, cached: 2 });
  });

  it('maxEntries 0 turns the cache off', async () => {
    const v = createTokenVerifier(config, { now: clock().now, cache: { maxEntries: 0 } });
    const t = await token('acme', 'viewer', sec(T0) + 3600);
    await v.verify(bearer(t));
    await v.verify(bearer(t));
    expect(v.stats).toMatchObject({ verifications: 2, hits: 0, cached: 0 });
  });

  it('works with real-clock tokens minted by mintDevToken', async () => {
    const v = createTokenVerifier(config);
    const t = await mintDevToken(config, { tenantId: 'acme', role: 'reviewer' });
    expect(await v.verify(bearer(t))).toEqual(await v.verify(bearer(t)));
    expect(v.stats.hits).toBe(1);
  });
});

describe('VerifiedTokenCache', () => {
  const p = (tenantId: string): Principal => ({ subject: 's', tenantId, role: 'viewer' });

  it('does not store tokens without a numeric exp, or already expired ones', () => {
    const cache = new VerifiedTokenCache(10, 60_000);
    cache.set('no-exp', p('a'), undefined, T0);
    cache.set('expired', p('a'), sec(T0), T0);
    expect(cache.size).toBe(0);
  });

  it('expires at min(exp, stored + maxAge) and drops the entry', () => {
    const cache = new VerifiedTokenCache(10, 60_000);
    cache.set('short', p('a'), sec(T0) + 5, T0);
    cache.set('long', p('b'), sec(T0) + 3600, T0);
    expect(cache.get('short', T0 + 4_999)?.tenantId).toBe('a');
    expect(cache.get('short', T0 + 5_000)).toBeUndefined();
    expect(cache.get('long', T0 + 59_999)?.tenantId).toBe('b');
    expect(cache.get('long', T0 + 60_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
