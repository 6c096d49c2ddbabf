// Presentation position of each model, from the anonymisation labels (ADR-015 "Position Mapping").
// Enhanced form {label: {model, display_index}} uses display_index; legacy {"Response A": "model-x"} parses the
// label's letters (A = 0, B = 1, …, Z = 25, AA = 26, …), relying on ADR-015's lexicographic-label invariant.

export type LabelToModel = Record<string, string | { model: string; display_index: number }>;

/** "Response A" → 0, "Response AB" → 27; null when the label does not end in capital letters after a space. */
export function labelLetterIndex(label: string): number | null {
  const m = /(?:^|\s)([A-Z]{1,3})$/.exec(label.trim());
  if (!m?.[1]) return null;
  let n = 0;
  for (const ch of m[1]) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function derivePositionMapping(labelToModel: LabelToModel | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [label, entry] of Object.entries(labelToModel ?? {})) {
    if (typeof entry === 'string') {
      const idx = labelLetterIndex(label);
      if (idx !== null && !(entry in out)) out[entry] = idx;
    } else {
      out[entry.model] = entry.display_index; // explicit index wins over a parsed one
    }
  }
  return out;
}

/** Label → model id for either form (stage-2 scores may be keyed by label). */
export function labelModels(labelToModel: LabelToModel | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [label, entry] of Object.entries(labelToModel ?? {})) out[label] = typeof entry === 'string' ? entry : entry.model;
  return out;
}
