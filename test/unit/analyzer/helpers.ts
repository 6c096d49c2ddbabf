import { prepareText, settingsFor } from '../../../shared/domain/analyzer';
import { defaultTenantAnalyzerConfig, TenantAnalyzerConfig } from '../../../shared/schemas/analyzer-config';

export const prep = (text: string, query = '') => prepareText(text, query);
export const defaults = () => settingsFor(defaultTenantAnalyzerConfig());
export const config = (over: Record<string, unknown> = {}) => TenantAnalyzerConfig.parse(over);
