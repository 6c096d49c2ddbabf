// Analyzer entry point: runs the detectors and assembles the FR-BIAS-4.3.2 BiasReport.
import type { AnalyzeBiasRequest, BiasReport, Finding } from '../../schemas/analysis';
import type { Detector } from './detector';
import { languageDetector } from './language';

export interface Analyzer {
  analyze(request: AnalyzeBiasRequest): Promise<BiasReport>;
}

export async function createAnalyzer(detectors: Detector[] = [languageDetector]): Promise<Analyzer> {
  return {
    async analyze(request) {
      const findings: Finding[] = [];
      const timings: Record<string, number> = {};
      for (const d of detectors) {
        const t0 = performance.now();
        findings.push(...(await d.detect({ text: request.llm_response, query: request.original_query })));
        timings[d.name] = Math.round((performance.now() - t0) * 1000) / 1000;
      }
      const types = [...new Set(findings.flatMap((f) => f.bias_type))];
      const top = Math.max(0, ...findings.map((f) => f.score));
      return {
        bias_detected: findings.length > 0,
        bias_type: types,
        bias_score: Object.fromEntries(types.map((t) => [`${t}_score`, top])),
        confidence: findings.length > 0 ? top : 1 - top,
        mitigation_action: findings.length > 0
          ? { type: 'REPHRASE_RESPONSE', details: findings.map((f) => f.suggestion ? `"${f.spans[0]?.text}" → "${f.suggestion}"` : f.explanation).join('; ') }
          : { type: 'NONE', details: 'no bias found' },
        bias_report_summary: {
          findings,
          detector_versions: Object.fromEntries(detectors.map((d) => [d.name, d.version])),
          timings_ms: timings,
        },
      };
    },
  };
}
