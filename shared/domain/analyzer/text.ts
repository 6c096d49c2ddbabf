// Text helpers shared by the detectors: sentence segmentation with character offsets, quote detection,
// and the "meta context" test (negation, quotation, policy or myth-busting framing) that keeps detectors
// from firing on text that talks ABOUT a stereotype instead of asserting it.
import type { Span } from '../../schemas/analysis';

export interface Sentence {
  index: number;
  start: number;
  end: number;
  text: string;
}

/** Longest stretch we scan as one sentence; keeps regex work linear on pathological input (no punctuation). */
export const MAX_SENTENCE = 600;
const ABBREVIATIONS = /(?:\b(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|e\.g|i\.e|inc|ltd|co|no|approx|dept|fig|u\.s|a\.m|p\.m))\.$/i;

/**
 * Splits on ., !, ? (followed by space/quote/end), on newlines that end a line, and on list bullets.
 * Offsets are exact into the original string.
 */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const n = text.length;
  let start = 0;
  const push = (s: number, e: number) => {
    // trim whitespace and bullet markers
    while (s < e && /[\s*\-•>#]/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    if (e <= s) return;
    // hard-wrap very long runs so later per-sentence regexes stay bounded
    for (let a = s; a < e; a += MAX_SENTENCE) {
      const b = Math.min(e, a + MAX_SENTENCE);
      out.push({ index: out.length, start: a, end: b, text: text.slice(a, b) });
    }
  };
  for (let i = 0; i < n; i++) {
    const c = text[i]!;
    if (c === '\n') {
      // LLM answers use line breaks for structure (lists, headings, paragraphs): every line ends a sentence
      push(start, i);
      start = i + 1;
      continue;
    }
    if (c === '.' || c === '!' || c === '?') {
      let j = i + 1;
      while (j < n && /["'”’)\]]/.test(text[j]!)) j++;
      if (j >= n || /\s/.test(text[j]!)) {
        if (c === '.' && ABBREVIATIONS.test(text.slice(Math.max(start, i - 6), i + 1))) continue;
        if (c === '.' && /\d$/.test(text.slice(i - 1, i)) && j < n && /\d/.test(text[j + 1] ?? '')) continue;
        push(start, j);
        start = j;
        i = j - 1;
      }
    }
  }
  push(start, n);
  return out;
}

/**
 * Every match of a global regex in `s`, exactly as `[...s.matchAll(re)]` returns them. matchAll clones the regex
 * (species constructor) on every call, which costs about twice the scan itself on a 100-character sentence; the
 * detectors call it hundreds of times per request. Starts at 0 and leaves `re.lastIndex` at 0.
 */
export function matchesOf(re: RegExp, s: string): RegExpExecArray[] {
  if (!re.global) throw new TypeError('matchesOf needs a global regex');
  const out: RegExpExecArray[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    out.push(m);
    // an empty match does not move lastIndex: step over one character (one code point in unicode mode), as matchAll does
    if (m[0] === '') re.lastIndex = advanceIndex(s, re.lastIndex, re.unicode || re.flags.includes('v'));
  }
  return out;
}

function advanceIndex(s: string, i: number, unicode: boolean): number {
  if (!unicode || i + 1 >= s.length) return i + 1;
  const c = s.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? i + 2 : i + 1;
}

/**
 * Regexes that, together, match a string wherever one of `patterns` would: one alternation per distinct set of flags
 * (global and sticky dropped). Testing a sentence once for "any of these" costs about half of testing each pattern.
 * Only for yes/no tests: the alternation's match is not necessarily the first pattern's match. A pattern with numbered
 * backreferences stays on its own (joining would renumber its groups).
 */
export function anyOf(patterns: readonly RegExp[]): RegExp[] {
  const byFlags = new Map<string, string[]>();
  const alone: RegExp[] = [];
  for (const re of patterns) {
    const flags = re.flags.replace(/[gy]/g, '');
    const branches = topLevelBranches(re.source);
    if (!branches || /\\[1-9]/.test(re.source)) alone.push(new RegExp(re.source, flags));
    else byFlags.set(flags, [...(byFlags.get(flags) ?? []), ...branches]);
  }
  return [...[...byFlags].map(([flags, branches]) => new RegExp(factoredSource(branches), flags)), ...alone];
}

/**
 * The same regex with the `\b` that starts every top-level alternative written once in front: `\bfoo|\bbar(s)`
 * becomes `\b(?:foo|bar(s))`. Matches, positions and groups are the same (each alternative is still tried in order
 * after the same boundary test), but V8 runs the factored form two to three times faster on long alternations.
 * Returns `re` itself when some alternative does not start with `\b`.
 */
export function factorWordBoundary(re: RegExp): RegExp {
  const branches = topLevelBranches(re.source);
  if (!branches) return re;
  const source = factoredSource(branches);
  return source === re.source ? re : new RegExp(source, re.flags);
}

function factoredSource(branches: string[]): string {
  return branches.every((b) => b.startsWith('\\b')) ? `\\b(?:${branches.map((b) => b.slice(2)).join('|')})` : branches.join('|');
}

/** The top-level alternatives of a regex source (escapes, groups and classes kept whole); null if it cannot be read. */
function topLevelBranches(src: string): string[] | null {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i = escapeEnd(src, i) - 1;
    else if (c === '(' || c === '[') {
      const e = closingEnd(src, i);
      if (e < 0) return null;
      i = e - 1;
    } else if (c === ')') return null;
    else if (c === '|') {
      out.push(src.slice(from, i));
      from = i + 1;
    }
  }
  out.push(src.slice(from));
  return out;
}

export const testAny = (alternations: readonly RegExp[], s: string) => alternations.some((re) => re.test(s));

/** Character ranges inside quotation marks ("…", “…”, and 'single' quotes that wrap at least two words). */
const QUOTED = /"([^"\n]{1,200})"|“([^”\n]{1,200})”|(?<![A-Za-z])'([^'\n]{1,200}?)'(?![A-Za-z])|‘([^’\n]{1,200}?)’/g;
export function quotedRanges(text: string): [number, number][] {
  return matchesOf(QUOTED, text).map((m) => [m.index, m.index + m[0].length]);
}

export const insideQuote = (ranges: [number, number][], start: number, end: number) => ranges.some(([a, b]) => start >= a && end <= b);

/**
 * Framing that turns a stereotype into a reported, negated or rejected claim: "it is a myth that…",
 * "do not assume…", "avoid phrases like…", "regardless of…", "the stereotype that…".
 */
const META_CUE = factorWordBoundary(new RegExp(
  [
    String.raw`\bmyths?\b`,
    String.raw`\bmisconceptions?\b`,
    String.raw`\bstereotyp\w*`,
    String.raw`\bclich[eé]s?\b`,
    String.raw`\btropes?\b`,
    String.raw`\bprejudice\w*`,
    String.raw`\b(?:false|wrong|common|outdated|biased|unfounded|harmful|lazy|unfair|untested) (?:assumptions?|beliefs?|generali[sz]ations?)\b`,
    String.raw`\b(?:the )?(?:assumption|presumption|generali[sz]ation) that\b`,
    String.raw`\b(?:make|making|made) (?:\w+ )?(?:assumptions|generali[sz]ations)\b`,
    String.raw`\bassumptions? about\b`,
    String.raw`\b(?:is |are |was |it's )?(?:false|untrue|not true|unfounded|baseless|debunked|disproven|refuted|mistaken|wrong|incorrect) (?:that|to (?:assume|say|think|believe))\b`,
    String.raw`\b(?:mistakenly|wrongly|incorrectly|falsely)\b`,
    String.raw`\bno (?:evidence|basis|support|data) (?:that|for|to)\b`,
    String.raw`\b(?:debunk\w*|disprov\w*|refut\w*)\b`,
    String.raw`\bavoid(?:s|ed|ing)? (?:\w+ ){0,2}?(?:assum\w*|stereotyp\w*|generali[sz]\w*|language|phrases?|terms?|words?|wording|saying|using|asking|references?|jokes?|labels?|comments?|messages?|proxies|proxy|treat\w*|plac\w*|portray\w*|depict\w*|cast\w*|singl\w*)\b`,
    String.raw`\b(?:rather than|instead of|replace[sd]?|replacing|reword\w*|rephras\w*|swap\w*)\s+(?:\w+\s+){0,3}?["'“‘]`,
    String.raw`\b(?:regardless of|irrespective of|without regard to|not because of) (?:their |your |a |an |the |his |her )?(?:age|gender|sex|race|ethnicity|colou?r|religion|faith|beliefs?|nationality|national origin|origin|background|disabilit\w+|sexual orientation|orientation|marital status|pregnancy|who|where)`,
    String.raw`\b(?:(?:do|does|did|must|should|will|can|could|may) ?(?:not|n't)|never|cannot|won't|shouldn't|mustn't)\s+(?:\w+\s+){0,2}?(?:assum\w*|consider\w*|rel(?:y|ies|ied|ying)|bas(?:e|ed|ing) (?:\w+ )?(?:on|decisions)|judg\w*|treat\w*|factor\w*|infer\w*|ask\w* (?:about|whether|if)|mean\w*|imply\w*|suggest\w*|tolerat\w*|exclud\w*|penali[sz]\w*|discriminat\w*|stereotyp\w*|generali[sz]\w*|single\w* out|target\w*|flag\w*|question\w*|screen\w*|check\w*|ask\w* for|request\w*|collect\w*|record\w*)`,
    String.raw`\b(?:claims?|claimed|belief|notion|idea|perception|narrative|trope|myth|stereotype) that\b`,
    String.raw`\bcontrary to\b`,
    String.raw`\bdiscriminat\w* (?:claims?|complaints?|risks?)\b|\brisks? (?:\w+ ){0,2}?discriminat\w*`,
    String.raw`\b(?:which|that|it|this|the (?:line|phrase|wording|copy|sentence)) (?:implies|could imply|reads as|could read as|comes across as)\b`,
    String.raw`\blicen[cs]ing (?:conditions?|laws?|rules?|requirements?)\b`,
    String.raw`\b(?:illegal|unlawful|prohibited|not permitted|not allowed|discriminatory)\b`,
    String.raw`\b(?:protected (?:characteristic|class|attribute|group)s?)\b`,
    String.raw`\b(?:are|is|were|have been) (?:\w+ )?(?:excluded|not used|never used|removed|prohibited|not permitted|left out) (?:as|from)\b`,
    String.raw`\bunder (?:the )?(?:[\w-]+\s+){0,4}?(?:regulations?|act|law|directive|legislation)\b|\bby law\b|\blegally (?:required|obliged|prohibited|bound)\b|\b(?:minimum|legal) (?:working |drinking )?age\b`,
  ].join('|'),
  'i',
));

export function hasMetaCue(s: string): boolean {
  return META_CUE.test(s);
}

/** The sentence right after a claim that rebuts it ("In fact, research shows no difference"). */
const REBUTTAL = /^(?:but|however|in fact|actually|in reality|research|studies|the (?:evidence|data|research)|evidence|data)\b[^.]{0,200}\b(?:no|not|n't|refut\w*|contradict\w*|disprov\w*|otherwise|no (?:difference|evidence|link|correlation))\b/i;

export function isRebuttal(next: string | undefined): boolean {
  return next !== undefined && REBUTTAL.test(next.trim());
}

export const span = (text: string, start: number, end: number): Span => ({ start, end, text: text.slice(start, end) });

export const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

/** Escape a literal for use inside a RegExp. */
export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Noisy-OR of independent pieces of evidence. */
export const noisyOr = (scores: number[]) => 1 - scores.reduce((acc, s) => acc * (1 - clamp01(s)), 1);

export const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

// ---- literal pre-check ---------------------------------------------------------------------------------------
// Detector patterns run sentence by sentence (a match must stay inside one sentence), and most of them match in
// few sentences: most of their cost is regex calls that find nothing. Every match of a pattern contains one of a
// few literal strings that can be read from its source ("digital native", or one of "price", "cost", "margin"…).
// Searching those literals once over the whole text tells which sentences cannot match at all, so the pattern
// runs only on the others. A sentence is a substring of the text and the literal search uses the pattern's own
// case flags, so a sentence the pattern matches always contains a literal hit: the pre-check never changes a
// result. The reading of the source is conservative: whatever it does not understand gives no literal, and a
// pattern without usable literals runs on every sentence as before.

/** Shortest literal worth a pre-check: shorter ones ("a", "in") occur in nearly every sentence. */
const MIN_LITERAL = 3;

/** The quantifier starting at `i` and its minimum count, or null. */
function quantifierAt(src: string, i: number): { min: number; end: number } | null {
  let min: number;
  let end: number;
  const c = src[i];
  if (c === '?' || c === '*') [min, end] = [0, i + 1];
  else if (c === '+') [min, end] = [1, i + 1];
  else if (c === '{') {
    const m = /^\{(\d+)(?:,\d*)?\}/.exec(src.slice(i, i + 24));
    if (!m) return null;
    [min, end] = [Number(m[1]), i + m[0].length];
  } else return null;
  return { min, end: src[end] === '?' ? end + 1 : end };
}

/** End (exclusive) of the escape starting at `i` (a backslash). Errs on the long side: skipped text is never read as a literal. */
function escapeEnd(src: string, i: number): number {
  const d = src[i + 1];
  // \u{…}, \p{…}, \k<…>: only a well-formed brace or name belongs to the escape (never a `|` or a parenthesis)
  const braced = (d === 'u' || d === 'p' || d === 'P') && src[i + 2] === '{' ? /^\{[\w=.-]*\}/.exec(src.slice(i + 2, i + 64)) : null;
  const named = d === 'k' && src[i + 2] === '<' ? /^<[\w$]*>/.exec(src.slice(i + 2, i + 64)) : null;
  if (braced || named) return i + 2 + (braced ?? named)![0].length;
  let j = i + 2;
  if (d === 'u') while (j < i + 6 && /[0-9a-fA-F]/.test(src[j] ?? '')) j++;
  else if (d === 'x') while (j < i + 4 && /[0-9a-fA-F]/.test(src[j] ?? '')) j++;
  else if (d === 'c') j += /[A-Za-z]/.test(src[j] ?? '') ? 1 : 0;
  else if (d !== undefined && /\d/.test(d)) while (/\d/.test(src[j] ?? '')) j++;
  return Math.min(j, src.length);
}

/** End (exclusive) of the character class or group starting at `i`, or -1. */
function closingEnd(src: string, i: number): number {
  if (src[i] === '[') {
    for (let j = i + 1; j < src.length; j++) {
      if (src[j] === '\\') j = escapeEnd(src, j) - 1;
      else if (src[j] === ']') return j + 1;
    }
    return -1;
  }
  let depth = 0;
  for (let j = i; j < src.length; j++) {
    const c = src[j];
    if (c === '\\') j = escapeEnd(src, j) - 1;
    else if (c === '[') {
      const e = closingEnd(src, j);
      if (e < 0) return -1;
      j = e - 1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j + 1;
  }
  return -1;
}

const shortest = (xs: string[]) => Math.min(...xs.map((x) => x.length));

/**
 * Literals of the alternatives in src[start, end): every match of that part contains one of them (null when some
 * alternative has none). Within one alternative, each required piece (a run of plain characters, or a group that
 * must occur) gives a candidate set; the set whose shortest literal is longest is kept.
 */
function alternativesLiterals(src: string, start: number, end: number): string[] | null {
  const all: string[] = [];
  let i = start;
  for (;;) {
    let best: string[] | null = null;
    let run = '';
    const keep = (xs: string[]) => {
      if (!best || shortest(xs) > shortest(best)) best = xs;
    };
    const flush = () => {
      if (run) keep([run]);
      run = '';
    };
    while (i < end && src[i] !== '|') {
      const c = src[i]!;
      if (c === '(' || c === '[' || c === '\\') {
        const close = c === '\\' ? escapeEnd(src, i) : closingEnd(src, i);
        if (close < 0 || close > end) return null;
        const q = quantifierAt(src, close);
        flush();
        if (c === '(' && !/^\(\?(?:[=!]|<[=!])/.test(src.slice(i, i + 4)) && (!q || q.min > 0)) {
          // a group that must occur (lookarounds are zero-width and skipped)
          const named = /^\(\?<[^>]*>/.exec(src.slice(i, close));
          const inner = alternativesLiterals(src, i + (src.startsWith('(?:', i) ? 3 : named ? named[0].length : 1), close - 1);
          if (inner) keep(inner);
        }
        i = q ? q.end : close;
        continue;
      }
      const code = c.charCodeAt(0);
      if ('^$.*+?{}]|)'.includes(c) || (code >= 0xd800 && code <= 0xdfff)) {
        // assertions, wildcards, stray quantifiers and surrogate halves: no literal
        flush();
        const q = quantifierAt(src, i + 1);
        i = q && c === '.' ? q.end : i + 1;
        continue;
      }
      const q = quantifierAt(src, i + 1);
      if (q) {
        // "s?" is optional, "s+" occurs at least once
        if (q.min > 0) run += c;
        flush();
        i = q.end;
        continue;
      }
      run += c;
      i++;
    }
    flush();
    if (!best) return null;
    all.push(...(best as string[]));
    if (i >= end) return all;
    i++; // past '|'
  }
}

/** Literals one of which every match of `re` contains (case as per its flags), or null when none can be read. */
export function requiredLiterals(re: RegExp): string[] | null {
  if (re.flags.includes('v') || re.flags.includes('x')) return null;
  const lits = alternativesLiterals(re.source, 0, re.source.length);
  return lits && shortest(lits) >= MIN_LITERAL ? [...new Set(lits)] : null;
}

/** A global search for the literals of `patterns` (any of them may match), or null when one has no usable literals. */
export function literalPrecheck(...patterns: RegExp[]): RegExp | null {
  const lits: string[] = [];
  let flags: string | undefined;
  for (const re of patterns) {
    const f = re.flags.replace(/[^iu]/g, '');
    const l = requiredLiterals(re);
    // one search serves several patterns only when they agree on case and unicode handling
    if (!l || (flags !== undefined && f !== flags)) return null;
    flags = f;
    lits.push(...l);
  }
  return lits.length ? new RegExp([...new Set(lits)].map(escapeRe).join('|'), `g${flags}`) : null;
}

/**
 * For each sentence (in text order), whether a pattern with this pre-check may match in it: false only when the
 * sentence holds none of the literals. One left-to-right search over `text`; all true without a pre-check.
 */
export function sentencesThatMayMatch(precheck: RegExp | null, text: string, sentences: readonly Sentence[]): boolean[] {
  if (!precheck) return sentences.map(() => true);
  let next = -1; // start of the first literal hit at or after the current sentence's start
  return sentences.map((s) => {
    if (next < s.start) {
      precheck.lastIndex = s.start;
      const hit = precheck.exec(text);
      next = hit ? hit.index : Infinity;
    }
    return next < s.end;
  });
}

/** Whether a pattern with this pre-check may match in `s` (true without a pre-check). */
export function mayMatch(precheck: RegExp | null, s: string): boolean {
  if (!precheck) return true;
  precheck.lastIndex = 0;
  return precheck.test(s);
}
