import type { TenantAnalyzerConfig } from '../schemas/analyzer-config';

/** Per-tenant analyzer configuration (`tenants/{tenantId}/config/analyzer`); the default config when absent. */
export interface TenantConfigStore {
  get(tenantId: string): Promise<TenantAnalyzerConfig>;
}
