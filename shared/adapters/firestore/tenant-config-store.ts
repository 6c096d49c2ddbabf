// Reads `tenants/{tenantId}/config/analyzer` (written by the GraphQL admin mutations with the same zod schema),
// decoded with TenantAnalyzerConfig. Absent → the default config. A document that fails validation also
// yields the default config (analysis must not stop because of a bad admin edit) and is reported through
// `onInvalid`. `cachedTenantConfigs` keeps one decoded config per tenant for a short TTL per process.
import type { Firestore } from '@google-cloud/firestore';
import { transient } from '../../errors';
import type { TenantConfigStore } from '../../ports/tenant-config';
import { defaultTenantAnalyzerConfig, TenantAnalyzerConfig } from '../../schemas/analyzer-config';
import { fromAnalyzerConfigDoc } from '../../schemas/analyzer-config-doc';
import { tenantDoc } from './paths';

/** Bookkeeping fields a writer may add next to the config; not part of the schema. */
const METADATA_FIELDS = ['updated_at', 'updated_by', 'version', 'created_at'];

export const tenantAnalyzerConfigDoc = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('config').doc('analyzer');

export function decodeTenantConfig(data: unknown): { config: TenantAnalyzerConfig; error: string | null } {
  if (data === undefined || data === null) return { config: defaultTenantAnalyzerConfig(), error: null };
  const body = typeof data === 'object' ? Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([k]) => !METADATA_FIELDS.includes(k))) : data;
  // Stored domain rules keep each `all` group as {any: [...]} (Firestore has no nested arrays).
  const parsed = TenantAnalyzerConfig.safeParse(fromAnalyzerConfigDoc(body));
  if (parsed.success) return { config: parsed.data, error: null };
  return { config: defaultTenantAnalyzerConfig(), error: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
}

export class FirestoreTenantConfigStore implements TenantConfigStore {
  constructor(
    private readonly db: Firestore,
    private readonly onInvalid: (tenantId: string, error: string) => void = () => {},
  ) {}

  async get(tenantId: string): Promise<TenantAnalyzerConfig> {
    let snap;
    try {
      snap = await tenantAnalyzerConfigDoc(this.db, tenantId).get();
    } catch (e) {
      throw transient('tenant config unavailable', e);
    }
    const { config, error } = decodeTenantConfig(snap.exists ? snap.data() : undefined);
    if (error) this.onInvalid(tenantId, error);
    return config;
  }
}

/** Per-process cache with a short TTL; concurrent misses for one tenant share a single read. */
export function cachedTenantConfigs(inner: TenantConfigStore, ttlMs = 30_000, now: () => number = Date.now, maxTenants = 10_000): TenantConfigStore & { invalidate(tenantId?: string): void } {
  const cache = new Map<string, { at: number; value: Promise<TenantAnalyzerConfig> }>();
  return {
    get(tenantId) {
      const hit = cache.get(tenantId);
      if (hit && now() - hit.at < ttlMs) return hit.value;
      const value = inner.get(tenantId);
      if (cache.size >= maxTenants) cache.delete(cache.keys().next().value as string);
      cache.set(tenantId, { at: now(), value });
      // a failed read is not cached
      value.catch(() => {
        if (cache.get(tenantId)?.value === value) cache.delete(tenantId);
      });
      return value;
    },
    invalidate(tenantId) {
      if (tenantId === undefined) cache.clear();
      else cache.delete(tenantId);
    },
  };
}
