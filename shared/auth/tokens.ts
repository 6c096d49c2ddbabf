// Bearer-token verification with jose. The verified claims are the only source of tenant and role.
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

export function createTokenVerifier(config: Config): TokenVerifier {
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
  return {
    async verify(header) {
      const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
      if (!match?.[1]) throw unauthenticated();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(match[1], key as Uint8Array, {
          algorithms,
          issuer: config.AUTH_ISSUER,
          audience: config.AUTH_AUDIENCE,
        }));
      } catch (e) {
        const code = (e as { code?: string }).code ?? 'ERR_JWT_INVALID';
        throw unauthenticated(code === 'ERR_JWT_EXPIRED' ? 'token expired' : `token rejected (${code})`);
      }
      const claims = Claims.safeParse(payload);
      if (!claims.success) throw unauthenticated('token lacks sub, tenant_id or a known role');
      return { subject: claims.data.sub, tenantId: claims.data.tenant_id, role: claims.data.role };
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
