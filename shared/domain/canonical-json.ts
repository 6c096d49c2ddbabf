import { createHash } from 'node:crypto';

/** Deterministic JSON: object keys sorted at every level, undefined members dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const src = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(src).sort()) if (src[k] !== undefined) out[k] = src[k];
      return out;
    }
    return v;
  });
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
