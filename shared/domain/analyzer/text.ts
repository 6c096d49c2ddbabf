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
const META_CUE = new RegExp(
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
    String.raw`\bavoid(?:s|ed|ing)? (?:\w+ ){0,2}?(?:assum\w*|stereotyp\w*|generali[sz]\w*|language|phrases?|terms?|words?|wording|saying|using|asking|references?|jokes?|labels?|comments?|messages?|proxies|proxy)\b`,
    String.raw`\b(?:rather than|instead of|replace[sd]?|replacing|reword\w*|rephras\w*|swap\w*)\s+(?:\w+\s+){0,3}?["'“‘]`,
    String.raw`\b(?:regardless of|irrespective of|without regard to|not because of) (?:their |your |a |an |the |his |her )?(?:age|gender|sex|race|ethnicity|colou?r|religion|faith|beliefs?|nationality|national origin|origin|background|disabilit\w+|sexual orientation|orientation|marital status|pregnancy|who|where)`,
    String.raw`\b(?:(?:do|does|did|must|should|will|can|could|may) ?(?:not|n't)|never|cannot|won't|shouldn't|mustn't)\s+(?:\w+\s+){0,2}?(?:assum\w*|consider\w*|rel(?:y|ies|ied|ying)|bas(?:e|ed|ing) (?:\w+ )?(?:on|decisions)|judg\w*|treat\w*|factor\w*|infer\w*|ask\w* (?:about|whether|if)|mean\w*|imply\w*|suggest\w*|tolerat\w*|exclud\w*|penali[sz]\w*|discriminat\w*|stereotyp\w*|generali[sz]\w*)`,
    String.raw`\b(?:claims?|claimed|belief|notion|idea|perception|narrative|trope|myth|stereotype) that\b`,
    String.raw`\bcontrary to\b`,
    String.raw`\b(?:illegal|unlawful|prohibited|not permitted|not allowed|discriminatory)\b`,
    String.raw`\b(?:protected (?:characteristic|class|attribute|group)s?)\b`,
    String.raw`\b(?:are|is|were|have been) (?:\w+ )?(?:excluded|not used|never used|removed|prohibited|not permitted|left out) (?:as|from)\b`,
    String.raw`\bunder (?:the )?(?:[\w-]+\s+){0,4}?(?:regulations?|act|law|directive|legislation)\b|\bby law\b|\blegally (?:required|obliged|prohibited|bound)\b|\b(?:minimum|legal) (?:working |drinking )?age\b`,
  ].join('|'),
  'i',
);

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
