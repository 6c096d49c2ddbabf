import { Firestore } from '@google-cloud/firestore';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedTenantConfigs, FirestoreTenantConfigStore, tenantAnalyzerConfigDoc } from '../../../shared/adapters/firestore/tenant-config-store';
import { createAnalyzerSync } from '../../../shared/domain/analyzer';
import { defaultTenantAnalyzerConfig } from '../../../shared/schemas/analyzer-config';
import { uniqueTenant } from '../../support/tenants';

const db = new Firestore({ projectId: process.env.GCLOUD_PROJECT, ignoreUndefinedProperties: true });
afterAll(() => db.terminate());

describe('FirestoreTenantConfigStore (emulator)', () => {
  it('returns the default config when the tenant has none', async () => {
    expect(await new FirestoreTenantConfigStore(db).get(uniqueTenant('cfg'))).toEqual(defaultTenantAnalyzerConfig());
  });

  it('decodes the stored document and the analyzer applies it', async () => {
    const tenant = uniqueTenant('cfg');
    await tenantAnalyzerConfigDoc(db, tenant).set({ enabled_detectors: ['toxicity'], allow_list: ['chairman'], updated_at: new Date().toISOString() });
    const cfg = await new FirestoreTenantConfigStore(db).get(tenant);
    expect(cfg.enabled_detectors).toEqual(['toxicity']);
    const report = createAnalyzerSync({ classifier: null }).analyzeSync({ llm_response: 'Older workers are naturally slow to learn.', original_query: '' }, cfg);
    expect(report.bias_detected).toBe(false);
  });

  it('falls back to defaults on an invalid document and reports it', async () => {
    const tenant = uniqueTenant('cfg');
    await tenantAnalyzerConfigDoc(db, tenant).set({ detection_threshold: 'high' });
    const errors: string[] = [];
    const cfg = await new FirestoreTenantConfigStore(db, (_t, e) => errors.push(e)).get(tenant);
    expect(cfg).toEqual(defaultTenantAnalyzerConfig());
    expect(errors[0]).toContain('detection_threshold');
  });

  it('serves cached values within the TTL and re-reads after it', async () => {
    const tenant = uniqueTenant('cfg');
    let now = 0;
    const store = cachedTenantConfigs(new FirestoreTenantConfigStore(db), 30_000, () => now);
    await tenantAnalyzerConfigDoc(db, tenant).set({ detection_threshold: 0.6 });
    expect((await store.get(tenant)).detection_threshold).toBe(0.6);
    await tenantAnalyzerConfigDoc(db, tenant).set({ detection_threshold: 0.8 });
    expect((await store.get(tenant)).detection_threshold).toBe(0.6);
    now = 31_000;
    expect((await store.get(tenant)).detection_threshold).toBe(0.8);
  });
});
