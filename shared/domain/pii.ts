// PII masking applied before anything is stored. Pure; counts feed `redaction_summary`.

export type PiiKind = 'email' | 'card' | 'national_id' | 'phone' | 'ip';
export type RedactionCounts = Partial<Record<PiiKind, number>>;

const TOKEN: Record<PiiKind, string> = {
  email: '[EMAIL]',
  card: '[CARD]',
  national_id: '[NATIONAL_ID]',
  phone: '[PHONE]',
  ip: '[IP]',
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

interface Rule {
  kind: PiiKind;
  pattern: RegExp;
  accept?: (match: string) => boolean;
}

const digitsOf = (s: string) => s.replace(/\D/g, '');

// Order matters: longer, more specific patterns first so a card number is not half-eaten as a phone number.
const RULES: Rule[] = [
  { kind: 'email', pattern: /[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*\.[A-Za-z]{2,24}/g },
  {
    kind: 'card',
    pattern: /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g,
    accept: (m) => {
      const d = digitsOf(m);
      return d.length >= 13 && d.length <= 19 && luhnValid(d);
    },
  },
  {
    // US SSN (excluding never-issued areas) and UK National Insurance numbers.
    kind: 'national_id',
    pattern: /\b(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}\b|\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g,
  },
  {
    kind: 'ip',
    pattern: /\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\b|(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){2,7}(?::|[0-9A-Fa-f]{1,4})(?![\w:])|(?<![\w:])(?:[0-9A-Fa-f]{1,4}:){1,6}:(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){0,5})?(?![\w:])/g,
    // Clock times such as 10:30:45 look like IPv6 groups; require a hex letter, "::" or eight groups.
    accept: (m) => m.includes('.') || m.includes('::') || /[A-Fa-f]/.test(m) || m.split(':').length === 8,
  },
  {
    kind: 'phone',
    pattern: /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,5}){1,4}(?![\w-])/g,
    accept: (m) => {
      const d = digitsOf(m);
      if (/^\d{4}-\d{2}-\d{2}$/.test(m)) return false; // ISO date
      if (/^\d{1,3}(?:[ ,.]\d{3})+$/.test(m)) return false; // thousands grouping
      return d.length >= 9 && d.length <= 15 || (m.startsWith('+') && d.length >= 8 && d.length <= 15);
    },
  },
];

export interface MaskResult {
  text: string;
  counts: RedactionCounts;
}

export function maskText(text: string, counts: RedactionCounts = {}): MaskResult {
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (match) => {
      if (rule.accept && !rule.accept(match)) return match;
      counts[rule.kind] = (counts[rule.kind] ?? 0) + 1;
      return TOKEN[rule.kind];
    });
  }
  return { text: out, counts };
}

/** Masks every string inside a JSON value (prompt variables, query context). */
export function maskJson<T>(value: T, counts: RedactionCounts = {}, depth = 0): T {
  if (depth > 32) return value;
  if (typeof value === 'string') return maskText(value, counts).text as T;
  if (Array.isArray(value)) return value.map((v) => maskJson(v, counts, depth + 1)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskJson(v, counts, depth + 1);
    return out as T;
  }
  return value;
}

export const totalRedactions = (counts: RedactionCounts) => Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
