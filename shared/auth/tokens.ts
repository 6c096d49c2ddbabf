// Bearer-token verification with jose, with a bounded cache of verified tokens (decision 070). The verified
// claims are the only source of tenant and role.
import { SignJWT, createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import type { Config } from '../config';
import { unauthenticated } from '../errors';

export const Role = z.enum(['viewer', 'reviewer', 'admin', 'service']);
export type Role = z.infer<typeof Role>;

export interface Principal {
  subject: string;
  tenantId: string;
  role: Role;
}

const Claims = z.object({
  sub: z.string().min(1),
  tenant_id: z.string().min(1).max(128).regex(/^[A-Za-z0-9][A-Za-z0-9_.:@-]*$/),
  role: Role,
});

export interface TokenVerifier {
  verify(bearer: string | undefined | null): Promise<Principal>;
}

export interface TokenCacheOptions {
  /** Most tokens kept (least recently used go first); 0 turns the cache off. */
  maxEntries?: number;
  /** A cached verification is redone after this long even if the token's `exp` is later (key rotation, JWKS changes). */
  maxAgeMs?: number;
}

export const DEFAULT_TOKEN_CACHE = { maxEntries: 1000, maxAgeMs: 5 * 60_000 } as const;

interface CachedPrincipal {
  principal: Principal;
  /** Epoch ms after which the entry must not be served: min(exp, verified + maxAgeMs). */
  validUntilMs: number;
}

/**
 * Verified tokens keyed by the exact token string, least recently used first out. An entry never outlives the
 * token's `exp` (same rule as jose: valid while floor(now / 1 s) < exp) nor `maxAgeMs`. Only successful
 * verifications are stored, so a rejected token is checked again every time.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, CachedPrincipal>();
  constructor(
    readonly maxEntries: number,
    readonly maxAgeMs: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(token: string, nowMs: number): Principal | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    this.entries.delete(token);
    if (nowMs >= hit.validUntilMs) return undefined;
    this.entries.set(token, hit); // most recently used goes last
    return hit.principal;
  }

  /** `exp` in seconds since the epoch; a token without a numeric `exp` is not cached. */
  set(token: string, principal: Principal, exp: number | undefined, nowMs: number): void {
    if (this.maxEntries <= 0 || typeof exp !== 'number' || !Number.isFinite(exp)) return;
    const validUntilMs = Math.min(exp * 1000, nowMs + this.maxAgeMs);
    if (nowMs >= validUntilMs) return;
    this.entries.delete(token);
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { principal, validUntilMs });
  }
}

export interface CachingTokenVerifier extends TokenVerifier {
  /** Verifications answered from the cache, and full jose verifications (successful or not). */
  readonly stats: { hits: number; verifications: number; cached: number };
}

/**
 * Bearer-token verifier. Tokens that verify are cached (see VerifiedTokenCache), so a client reusing one token
 * pays for the signature check once per `maxAgeMs`; issuer, audience, algorithm and claims are checked before
 * anything is cached, and the principal (tenant, role) only ever comes from the verified claims.
 */
export function createTokenVerifier(config: Config, opts: { cache?: TokenCacheOptions; now?: () => number } = {}): CachingTokenVerifier {
  let key: Uint8Array | JWTVerifyGetKey;
  let algorithms: string[];
  if (config.AUTH_JWKS_URL) {
    key = createRemoteJWKSet(new URL(config.AUTH_JWKS_URL));
    algorithms = ['RS256'];
  } else if (config.AUTH_HS256_SECRET) {
    key = new TextEncoder().encode(config.AUTH_HS256_SECRET);
    algorithms = ['HS256'];
  } else {
    throw new Error('invalid configuration: AUTH_JWKS_URL or AUTH_HS256_SECRET is required');
  }
  const now = opts.now ?? Date.now;
  const cache = new VerifiedTokenCache(opts.cache?.maxEntries ?? DEFAULT_TOKEN_CACHE.maxEntries, opts.cache?.maxAgeMs ?? DEFAULT_TOKEN_CACHE.maxAgeMs);
  const stats = {
    hits: 0,
    verifications: 0,
    get cached() {
      return cache.size;
    },
  };
  return {
    stats,
    async verify(header) {
      const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
      const token = match?.[1];
      if (!token) throw unauthenticated();
      const t = now();
      const cached = cache.get(token, t);
      if (cached) {
        stats.hits++;
        return cached;
      }
      stats.verifications++;
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, key as Uint8Array, {
          algorithms,
          issuer: config.AUTH_ISSUER,
          audience: config.AUTH_AUDIENCE,
          currentDate: new Date(t),
        }));
      } catch (e) {
        const code = (e as { code?: string }).code ?? 'ERR_JWT_INVALID';
        throw unauthenticated(code === 'ERR_JWT_EXPIRED' ? 'token expired' : `token rejected (${code})`);
      }
      const claims = Claims.safeParse(payload);
      if (!claims.success) throw unauthenticated('token lacks sub, tenant_id or a known role');
      const principal: Principal = Object.freeze({ subject: claims.data.sub, tenantId: claims.data.tenant_id, role: claims.data.role });
      cache.set(token, principal, payload.exp, t);
      return principal;
    },
  };
}

/** Mints an HS256 token for local development and tests. */
export async function mintDevToken(
  config: Config,
  claims: { tenantId: string; role: Role; subject?: string; expiresIn?: string | number },
): Promise<string> {
  if (!config.AUTH_HS256_SECRET) throw new Error('AUTH_HS256_SECRET is not configured');
  return new SignJWT({ tenant_id: claims.tenantId, role: claims.role })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.subject ?? `${claims.role}@${claims.tenantId}`)
    .setIssuer(config.AUTH_ISSUER)
    .setAudience(config.AUTH_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(claims.expiresIn ?? '12h')
    .sign(new TextEncoder().encode(config.AUTH_HS256_SECRET));
}

const RANK: Record<Role, number> = { viewer: 0, reviewer: 1, admin: 2, service: 1 };

/** viewer < reviewer < admin; service is a separate machine role that may read and write analysis results. */
export function hasRole(principal: Principal, needed: Role): boolean {
  if (needed === 'service') return principal.role === 'service';
  if (principal.role === 'service') return needed === 'viewer';
  return RANK[principal.role] >= RANK[needed];
}
