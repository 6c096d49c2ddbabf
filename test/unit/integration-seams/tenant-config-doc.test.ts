import { describe, expect, it } from 'vitest';
import { decodeTenantConfig } from '../../../shared/adapters/firestore/tenant-config-store';
import { defaultTenantAnalyzerConfig, TenantAnalyzerConfig } from '../../../shared/schemas/analyzer-config';
import { toAnalyzerConfigDoc } from '../../../shared/schemas/analyzer-config-doc';

describe('tenant analyzer config as stored by GraphQL and read by the analyzer', () => {
  it('round-trips domain rules through the Firestore form ({any: [...]} groups)', () => {
    const config = TenantAnalyzerConfig.parse({
      allow_list: ['Chairman Cup'],
      domain_rules: [{ id: 'cheap-over-safe', bias_type: ['domain_profit_over_sustainability'], description: 'safety dismissed for cost', all: [['cheaper', 'lower cost'], ['ignore (the )?safety']] }],
    });
    const stored = { ...toAnalyzerConfigDoc(config), updated_at: '2026-11-22T00:00:00Z', updated_by: 'admin@acme' };
    expect(JSON.stringify(stored)).not.toMatch(/\[\[/); // no nested arrays reach Firestore
    const { config: decoded, error } = decodeTenantConfig(stored);
    expect(error).toBeNull();
    expect(decoded).toEqual(config);
  });

  it('falls back to defaults and reports why when the document is invalid', () => {
    const { config, error } = decodeTenantConfig({ detection_threshold: 7 });
    expect(config.detection_threshold).toBe(defaultTenantAnalyzerConfig().detection_threshold);
    expect(config.detection_threshold).not.toBe(7);
    expect(error).toMatch(/detection_threshold/);
  });
});
