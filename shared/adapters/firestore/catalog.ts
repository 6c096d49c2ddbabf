// Firestore adapters for the taxonomy, the tenant analyzer configuration and the pooled bias report.
import type { Firestore } from '@google-cloud/firestore';
import { DEFAULT_TAXONOMY } from '../../domain/taxonomy';
import { forbidden, transient } from '../../errors';
import { TenantAnalyzerConfig, defaultTenantAnalyzerConfig } from '../../schemas/analyzer-config';
import { fromAnalyzerConfigDoc, toAnalyzerConfigDoc } from '../../schemas/analyzer-config-doc';
import type {
  AnalyzerConfigRepo,
  BiasReportRepo,
  StoredAnalyzerConfig,
  TaxonomyEntryInput,
  TaxonomyRepo,
  TaxonomyView,
} from '../../ports/catalog';
import { tenantDoc } from './paths';

export const globalTaxonomyCol = (db: Firestore) => db.collection('bias_taxonomy');
export const tenantTaxonomyCol = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('taxonomy');
/** The analyzer reads this document with fromAnalyzerConfigDoc + TenantAnalyzerConfig (strict): config fields only. */
export const analyzerConfigDoc = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('config').doc('analyzer');
export const analyzerConfigMetaDoc = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('config').doc('analyzer_meta');
export const biasReportDoc = (db: Firestore, tenantId: string) => tenantDoc(db, tenantId).collection('bias_reports').doc('latest');

function view(data: Record<string, unknown>, scope: TaxonomyView['scope']): TaxonomyView | null {
  const key = data.bias_key;
  const sev = data.severity_level;
  if (typeof key !== 'string' || typeof sev !== 'number') return null;
  return {
    bias_key: key,
    description: typeof data.description === 'string' ? data.description : '',
    severity_level: sev,
    kind: typeof data.kind === 'string' ? data.kind : 'custom',
    scope,
    updated_at: typeof data.updated_at === 'string' ? data.updated_at : null,
    updated_by: typeof data.updated_by === 'string' ? data.updated_by : null,
  };
}

export class FirestoreTaxonomyRepo implements TaxonomyRepo {
  private globalCache: { at: number; entries: TaxonomyView[] } | undefined;
  constructor(
    private readonly db: Firestore,
    private readonly cacheMs = 30_000,
  ) {}

  private async globals(): Promise<TaxonomyView[]> {
    const now = Date.now();
    if (this.globalCache && now - this.globalCache.at < this.cacheMs) return this.globalCache.entries;
    const snap = await globalTaxonomyCol(this.db).get();
    const stored = snap.docs.map((d) => view(d.data(), 'global')).filter((v): v is TaxonomyView => v !== null);
    // An unseeded database still has the built-in vocabulary.
    const byKey = new Map<string, TaxonomyView>(
      DEFAULT_TAXONOMY.map((t) => [t.bias_key, { ...t, scope: 'global', updated_at: null, updated_by: null }]),
    );
    for (const s of stored) byKey.set(s.bias_key, s);
    const entries = [...byKey.values()].sort((a, b) => a.bias_key.localeCompare(b.bias_key));
    this.globalCache = { at: now, entries };
    return entries;
  }

  async list(tenantId: string): Promise<TaxonomyView[]> {
    const [globals, tenant] = await Promise.all([this.globals(), tenantTaxonomyCol(this.db, tenantId).get()]);
    const globalKeys = new Set(globals.map((g) => g.bias_key));
    const own = tenant.docs
      .map((d) => view(d.data(), 'tenant'))
      .filter((v): v is TaxonomyView => v !== null && !globalKeys.has(v.bias_key))
      .sort((a, b) => a.bias_key.localeCompare(b.bias_key));
    return [...globals, ...own];
  }

  async putTenantEntry(tenantId: string, entry: TaxonomyEntryInput, meta: { actor: string; at: string }): Promise<TaxonomyView> {
    const globals = await this.globals();
    if (globals.some((g) => g.bias_key === entry.bias_key)) {
      throw forbidden(`bias_key ${entry.bias_key} is a global taxonomy entry and read-only for tenants`);
    }
    const doc = { ...entry, updated_at: meta.at, updated_by: meta.actor };
    await tenantTaxonomyCol(this.db, tenantId).doc(entry.bias_key).set(doc);
    return { ...entry, scope: 'tenant', updated_at: meta.at, updated_by: meta.actor };
  }
}

export class FirestoreAnalyzerConfigRepo implements AnalyzerConfigRepo {
  constructor(private readonly db: Firestore) {}

  async get(tenantId: string): Promise<StoredAnalyzerConfig> {
    const [cfg, meta] = await Promise.all([analyzerConfigDoc(this.db, tenantId).get(), analyzerConfigMetaDoc(this.db, tenantId).get()]);
    const config = cfg.exists ? TenantAnalyzerConfig.parse(fromAnalyzerConfigDoc(cfg.data())) : defaultTenantAnalyzerConfig();
    return {
      config,
      version: cfg.exists ? Number(meta.get('version') ?? 1) : 0,
      updated_at: (meta.get('updated_at') as string | undefined) ?? null,
      updated_by: (meta.get('updated_by') as string | undefined) ?? null,
    };
  }

  async update(
    tenantId: string,
    change: (current: TenantAnalyzerConfig) => TenantAnalyzerConfig,
    meta: { actor: string; at: string },
  ): Promise<StoredAnalyzerConfig> {
    const ref = analyzerConfigDoc(this.db, tenantId);
    const metaRef = analyzerConfigMetaDoc(this.db, tenantId);
    try {
      return await this.db.runTransaction(async (tx) => {
        const [cfg, m] = await Promise.all([tx.get(ref), tx.get(metaRef)]);
        const current = cfg.exists ? TenantAnalyzerConfig.parse(fromAnalyzerConfigDoc(cfg.data())) : defaultTenantAnalyzerConfig();
        const next = TenantAnalyzerConfig.parse(change(current));
        const version = Number(m.get('version') ?? 0) + 1;
        tx.set(ref, toAnalyzerConfigDoc(next));
        tx.set(metaRef, { version, updated_at: meta.at, updated_by: meta.actor });
        return { config: next, version, updated_at: meta.at, updated_by: meta.actor };
      });
    } catch (e) {
      if (e instanceof Error && (e.name === 'AppError' || e.name === 'ZodError')) throw e;
      throw transient('analyzer config store unavailable', e);
    }
  }
}

export class FirestoreBiasReportRepo implements BiasReportRepo {
  constructor(private readonly db: Firestore) {}
  async latest(tenantId: string) {
    const snap = await biasReportDoc(this.db, tenantId).get();
    return snap.exists ? ((snap.data() ?? null) as Record<string, unknown> | null) : null;
  }
}
