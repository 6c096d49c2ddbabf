// Tenant-scoped reference data the API reads and admins edit: taxonomy, analyzer configuration, pooled reports.
import type { TenantAnalyzerConfig } from '../schemas/analyzer-config';

export interface TaxonomyView {
  bias_key: string;
  description: string;
  severity_level: number;
  kind: string;
  /** Global entries (`bias_taxonomy/{key}`) are read-only for tenants; tenant additions live under the tenant. */
  scope: 'global' | 'tenant';
  updated_at: string | null;
  updated_by: string | null;
}

export interface TaxonomyEntryInput {
  bias_key: string;
  description: string;
  severity_level: number;
  kind: string;
}

export interface TaxonomyRepo {
  list(tenantId: string): Promise<TaxonomyView[]>;
  /** Creates or replaces a tenant entry; refuses a key that exists globally (FORBIDDEN). */
  putTenantEntry(tenantId: string, entry: TaxonomyEntryInput, meta: { actor: string; at: string }): Promise<TaxonomyView>;
}

export interface StoredAnalyzerConfig {
  config: TenantAnalyzerConfig;
  version: number;
  updated_at: string | null;
  updated_by: string | null;
}

export interface AnalyzerConfigRepo {
  /** The tenant's config, or the defaults (version 0) when none was saved. */
  get(tenantId: string): Promise<StoredAnalyzerConfig>;
  /** Read-modify-write in one transaction; `change` may throw to refuse. */
  update(
    tenantId: string,
    change: (current: TenantAnalyzerConfig) => TenantAnalyzerConfig,
    meta: { actor: string; at: string },
  ): Promise<StoredAnalyzerConfig>;
}

export interface BiasReportRepo {
  /** `tenants/{t}/bias_reports/latest` as written by the aggregation job, or null. */
  latest(tenantId: string): Promise<Record<string, unknown> | null>;
}
