// Test-only decorator, enabled by FAULT_INJECTION (refused in production by loadConfig). A response containing
// `[[fault:N]]` fails its first N analysis attempts; `[[fault:always]]` never succeeds.
import type { BiasAnalyzer } from '../ports/analyzer';

const MARKER = /\[\[fault:(always|\d+)\]\]/;

export class InjectedFault extends Error {
  override name = 'InjectedFault';
}

export function withFaultInjection(inner: BiasAnalyzer): BiasAnalyzer {
  return {
    async analyze(request, tenantId, context) {
      const m = MARKER.exec(request.llm_response);
      if (m) {
        const failures = m[1] === 'always' ? Infinity : Number(m[1]);
        if ((context?.attempt ?? 0) < failures) throw new InjectedFault('injected analyzer fault');
      }
      return inner.analyze(request, tenantId, context);
    },
  };
}
