import type { AnalyzeBiasRequest, BiasReport } from '../schemas/analysis';

export interface AnalysisContext {
  /** Earlier failed attempts for this audit (0 on the first try). */
  attempt: number;
}

export interface BiasAnalyzer {
  analyze(request: AnalyzeBiasRequest, tenantId: string, context?: AnalysisContext): Promise<BiasReport>;
}
