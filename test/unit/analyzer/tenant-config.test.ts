import { describe, expect, it } from 'vitest';
import { cachedTenantConfigs, decodeTenantConfig } from '../../../shared/adapters/firestore/tenant-config-store';
import { defaultTenantAnalyzerConfig, type TenantAnalyzerConfig } from '../../../shared/schemas/analyzer-config';
import type { TenantConfigStore } from '../../../shared/ports/tenant-config';
import { resolveRules } from '../../../shared/domain/analyzer';

describe('tenant analyzer config', () => {
  it('decodes a stored document, ignoring bookkeeping fields, and falls back to defaults when absent or invalid', () => {
    expect(decodeTenantConfig(undefined).config).toEqual(defaultTenantAnalyzerConfig());
    const ok = decodeTenantConfig({ detection_threshold: 0.7, allow_list: ['Chairman Pro'], updated_at: '2026-11-22T00:00:00Z', updated_by: 'admin' });
    expect(ok.error).toBeNull();
    expect(ok.config.detection_threshold).toBe(0.7);
    const bad = decodeTenantConfig({ detection_threshold: 7 });
    expect(bad.error).toContain('detection_threshold');
    expect(bad.config).toEqual(defaultTenantAnalyzerConfig());
  });

  it('caches per tenant for the TTL and does not cache failures', async () => {
    let reads = 0;
    let fail = false;
    const inner: TenantConfigStore = {
      async get() {
        reads++;
        if (fail) throw new Error('down');
        return defaultTenantAnalyzerConfig();
      },
    };
    let t = 0;
    const cache = cachedTenantConfigs(inner, 30_000, () => t);
    await cache.get('t1');
    await cache.get('t1');
    expect(reads).toBe(1);
    await cache.get('t2');
    expect(reads).toBe(2);
    t = 31_000;
    await cache.get('t1');
    expect(reads).toBe(3);
    fail = true;
    t = 70_000;
    await expect(cache.get('t1')).rejects.toThrow('down');
    fail = false;
    await cache.get('t1');
    expect(reads).toBe(5);
  });

  it('extends or replaces the default rule set', () => {
    const rule = { id: 'x', bias_type: ['socioeconomic'], description: 'd', all: [['a']], unless: [], window: 1, score: 0.8, enabled: true };
    const ext: TenantAnalyzerConfig = { ...defaultTenantAnalyzerConfig(), domain_rules: [rule] };
    expect(resolveRules(ext).map((r) => r.id)).toEqual(expect.arrayContaining(['profit_over_sustainability', 'x']));
    expect(resolveRules({ ...ext, extend_default_rules: false }).map((r) => r.id)).toEqual(['x']);
  });
});
