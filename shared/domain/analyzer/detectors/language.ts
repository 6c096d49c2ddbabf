// Language detector: gendered or exclusionary wording (retext-equality, with tenant allow-lists), gender-coded
// job-ad wording (Gaucher et al. stems via gender-decoder, MIT) and default-gender role assumptions
// ("he" for an engineer of unstated gender; WinoBias occupations, MIT).
import retextEnglish from 'retext-english';
import retextEquality from 'retext-equality';
import { unified } from 'unified';
import { VFile } from 'vfile';
import type { Finding } from '../../../schemas/analysis';
import type { Detector, DetectorSettings, PreparedText } from '../detector';
import genderCoded from '../lexicons/gender-coded-words.json';
import occupations from '../lexicons/winobias-occupations.json';
import equalityWords from '../lexicons/retext-equality-words.json';
import { escapeRe, insideQuote, matchesOf, span } from '../text';

export const LANGUAGE_VERSION = '1.0.0';

// Built once per process (cold start).
const processor = unified().use(retextEnglish).use(retextEquality);

const PRONOUN = /^(?:he|she|him|her|his|hers|himself|herself|they|them|their|it)$/i;

interface WordingClass {
  test: RegExp;
  types: string[];
  score: number;
}
// retext-equality's messages, weighted by what they are about. Gendered role nouns in an answer are a real
// signal; "disabled" or "master" alone is usually neutral usage, so it is a hint that does not flag.
const WORDING: WordingClass[] = [
  { test: /(?:man|men|woman|women|wife|wives|boy|boys|girl|girls|lady|ladies|guy|guys|gal|gals|sister|brother|father|mother|fraternity|sorority|husband|maiden|mistress|actress|waitress|stewardess|hostess|heroine|manly|womanly|feminine|masculine|bachelor|spinster|hysterical|bitch|slut|whore)$|^(?:mankind|manpower|man[- ]?hours?|man[- ]?made|manned|unmanned|manhood|fellow|forefathers?|brotherhood|fraternity|sorority)/i, types: ['gender', 'language'], score: 0.55 },
  { test: /retard|cripple|lame|spaz|psycho|schizo|crazy|insane|nuts|loony|lunatic|maniac|mentally ill|handicap|wheelchair.bound|confined|suffer|afflict|victim|deaf.mute|dumb|moron|idiot|imbecile|midget|invalid|birth defect|special needs|OCD|bipolar|autis|addict|junkie/i, types: ['disability', 'language'], score: 0.35 },
  { test: /gyp|gypsy|eskimo|oriental|redskin|squaw|savage|tribe|powwow|spirit animal|ghetto|thug|illegal|alien|colou?red|mulatto|half.breed|exotic|uncle tom|jihad|infidel|heathen/i, types: ['race_ethnicity', 'language'], score: 0.5 },
  { test: /master|slave|whitelist|blacklist|white.?list|black.?list|grandfather/i, types: ['language'], score: 0.15 },
  { test: /gay|homo|lesbian|tranny|transvest|sexual preference|queer|dyke|fag/i, types: ['sexual_orientation', 'language'], score: 0.5 },
  { test: /old|elderly|senile|geezer|senior/i, types: ['age', 'language'], score: 0.35 },
];
const GROUP_NOUN = /^(?:women|woman|men|man|girls?|boys?|females?|males?|mothers?|fathers?|wives|wife|husbands?|sisters?|brothers?|daughters?|sons?|ladies|lady|gentlemen|gentleman|moms?|dads?|moms|mums?)$/i;
// Words with no neutral alternative in their sense (a midwife, a grandmother, tree nuts): never evidence.
const NEUTRAL_ROLE = /^(?:midwife|midwives|grand(?:mother|father|ma|pa|parent)s?|nuts|show (?:wo)?men)$/i;
const LOW_SIGNAL = /^(?:disabled|disability|blind|deaf|older|elderly|senior|seniors|mental|mentally|special|suffers?|suffering|victims?|confined|addicts?)$/i;

function classify(actual: string): WordingClass {
  return WORDING.find((w) => w.test.test(actual)) ?? { test: /./, types: ['language'], score: 0.05 };
}

// Pre-filter: retext-equality costs ~2-5 ms per KB, so it runs only on sentences holding a word it could flag
// that we would count (pronouns and group nouns are handled elsewhere; "just", "easy" etc. are not evidence).
const PREFILTER = new RegExp(
  `\\b(?:${(equalityWords as { words: string[] }).words
    .filter((w) => !PRONOUN.test(w) && !GROUP_NOUN.test(w) && !LOW_SIGNAL.test(w) && classify(w).score >= 0.15)
    .sort((x, y) => y.length - x.length)
    .map(escapeRe)
    .join('|')})\\b`,
  'i',
);
const wantsRetext = (sentence: string) => PREFILTER.test(sentence.includes('’') ? sentence.replaceAll('’', "'") : sentence);

export function retextFindings(doc: PreparedText, settings: DetectorSettings): Finding[] {
  const { text } = doc;
  const messages: { start: number; end: number; ruleId: string | undefined; expected: unknown[] }[] = [];
  for (const s of doc.sentences) {
    if (!wantsRetext(s.text)) continue;
    const file = new VFile(s.text);
    processor.runSync(processor.parse(file), file);
    for (const m of file.messages) {
      const a = m.place && 'start' in m.place ? m.place.start.offset : undefined;
      const b = m.place && 'end' in m.place ? m.place.end.offset : undefined;
      if (a === undefined || b === undefined) continue;
      messages.push({ start: s.start + a, end: s.start + b, ruleId: m.ruleId, expected: m.expected ?? [] });
    }
  }
  const allow = settings.allowList;
  const out: Finding[] = [];
  for (const m of messages) {
    const { start, end } = m;
    const actual = text.slice(start, end);
    // Pronouns are handled by the default-gender check below, which knows whether the gender is stated.
    if (PRONOUN.test(actual) || GROUP_NOUN.test(actual) || NEUTRAL_ROLE.test(actual)) continue;
    // a capitalised word next to another one, or after "the", inside a sentence is part of a name ("the Financial
    // Ombudsman Service"); ethnic labels are capitalised on their own ("the usual Oriental reluctance") and stay
    const before = text.slice(Math.max(0, start - 40), start).trimEnd();
    const after = text.slice(end, end + 40).trimStart();
    const inName = /^[A-Z]/.test(actual) && before !== '' && /[A-Za-z,]$/.test(before) && (/(?:^|\s)(?:the|[A-Z][\w'’&-]*)$/.test(before) || /^[A-Z]/.test(after));
    if (inName && !classify(actual).types.includes('race_ethnicity')) continue;
    if (allow.some((a) => a === actual.toLowerCase() || (a.includes(' ') && text.toLowerCase().includes(a) && a.includes(actual.toLowerCase())))) continue;
    if (insideQuote(doc.quotes, start, end)) continue;
    const cls = classify(actual);
    const expected = m.expected.map(String).filter((e) => e && !/^(?:it|turned off)$/i.test(e));
    out.push({
      detector: 'language',
      detector_version: LANGUAGE_VERSION,
      bias_type: cls.types,
      score: LOW_SIGNAL.test(actual) ? 0.1 : cls.score,
      explanation: `Potentially exclusionary wording "${actual}" (${m.ruleId ?? 'retext-equality'}).`,
      spans: [span(text, start, end)],
      ...(expected[0] ? { suggestion: matchCase(actual, expected[0]) } : {}),
      metric: 'language_score',
    });
  }
  return out;
}

const matchCase = (from: string, to: string) => (/^[A-Z]/.test(from) ? to[0]!.toUpperCase() + to.slice(1) : to.toLowerCase());

// ---- gender-coded job-ad wording -------------------------------------------------------------------------
const gc = genderCoded as { feminine_coded: string[]; masculine_coded: string[]; hyphenated_coded?: string[]; non_coded_exceptions?: string[] };
const EXCEPTIONS = new Set((gc.non_coded_exceptions ?? []).map((w) => w.toLowerCase()));
const stemRe = (stems: string[]) => new RegExp(`\\b(?:${stems.map(escapeRe).join('|')})[a-z-]*`, 'gi');
const FEM_RE = stemRe(gc.feminine_coded);
const MASC_RE = stemRe(gc.masculine_coded);
const JOB_AD = /\b(?:job (?:ad|advert|advertisement|posting|description|listing|spec)|we(?:'re| are) (?:hiring|looking for|seeking)|the ideal candidate|you will|you'll|requirements|responsibilities|qualifications|apply (?:now|today)|join our team|role|position|vacancy)\b/i;

export function genderCodedFindings(doc: PreparedText): Finding[] {
  if (!JOB_AD.test(doc.text) && !JOB_AD.test(doc.query)) return [];
  const hits = (re: RegExp) => matchesOf(re, doc.text).filter((m) => !EXCEPTIONS.has(m[0].toLowerCase()));
  const masc = hits(MASC_RE);
  const fem = hits(FEM_RE);
  const diff = masc.length - fem.length;
  if (Math.abs(diff) < 3) return [];
  const dominant = diff > 0 ? masc : fem;
  const strong = Math.abs(diff) >= 6 && Math.min(masc.length, fem.length) <= 1;
  return [
    {
      detector: 'language',
      detector_version: LANGUAGE_VERSION,
      bias_type: ['gender', 'language'],
      score: strong ? 0.45 : 0.2,
      explanation: `Job-ad wording leans ${diff > 0 ? 'masculine' : 'feminine'}-coded (${masc.length} masculine vs ${fem.length} feminine coded words, Gaucher et al. 2011).`,
      spans: dominant.slice(0, 20).map((m) => span(doc.text, m.index, m.index + m[0].length)),
      suggestion: 'Balance the wording (e.g. "collaborative", "supportive" alongside "driven", "competitive").',
      metric: 'gender_coded_wording',
    },
  ];
}

// ---- default-gender role assumptions -----------------------------------------------------------------------
const occ = occupations as { male_stereotyped: string[]; female_stereotyped: string[] };
const MALE_OCC = new Set(occ.male_stereotyped.map((o) => o.toLowerCase()));
const FEMALE_OCC = new Set(occ.female_stereotyped.map((o) => o.toLowerCase()));
const EXTRA_ROLES = [
  'engineer', 'doctor', 'pilot', 'scientist', 'programmer', 'surgeon', 'executive', 'director', 'officer', 'professor', 'plumber', 'electrician', 'architect',
  'banker', 'broker', 'underwriter', 'loan officer', 'recruiter', 'applicant', 'candidate', 'employee', 'customer', 'user', 'patient', 'student', 'client',
  'tenant', 'borrower', 'founder', 'entrepreneur', 'investor', 'technician', 'consultant', 'contractor', 'agent', 'caregiver', 'babysitter', 'midwife', 'dentist',
  'pharmacist', 'therapist', 'paralegal', 'administrator', 'coordinator', 'buyer', 'vendor', 'supplier', 'homeowner', 'policyholder', 'claimant', 'new hire', 'hire',
  'team lead', 'lead', 'leader', 'president', 'chairperson', 'chair', 'boss', 'owner', 'operator', 'firefighter', 'soldier', 'police officer', 'judge', 'senator',
  // the person a job ad or brief describes ("the right person … he'll need to")
  'person', 'individual', 'successful applicant', 'ideal candidate',
];
const ROLES = [...new Set([...MALE_OCC, ...FEMALE_OCC, ...EXTRA_ROLES])].sort((a, b) => b.length - a.length);
const ROLE_RE = new RegExp(`\\b(?:the|a|an|each|every|any|your|our|this|that|new|no)\\s+(?:[a-z-]+\\s+){0,2}?(${ROLES.map(escapeRe).join('|')})s?\\b`, 'gi');
const SENTENCE_END = /[.!?](?=\s|$)/g;
const PRONOUN_RE = /\b(he|him|his|himself|she|her|hers|herself)\b/gi;
const GENDER_WORD = /\b(?:man|woman|male|female|mr|mrs|ms|miss|sir|madam|gentleman|lady|boy|girl|father|mother|husband|wife|son|daughter|brother|sister|dad|mom|mum|guy|gal)\b/i;
const NOT_NAME = new Set(['I', 'The', 'A', 'An', 'If', 'When', 'This', 'That', 'Each', 'Every', 'Our', 'Your', 'In', 'On', 'For', 'As', 'After', 'Before', 'Then', 'And', 'But', 'Or', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'HR', 'CEO', 'CTO', 'CFO']);

const GENDERED_QUERY = /\b(?:he|she|him|her|his|hers|man|woman|male|female|mr|mrs|ms|miss|pregnant|mother|father|husband|wife)\b/i;
const CASE_SUBJECT = /^(?:customer|client|candidate|applicant|patient|tenant|claimant|borrower|student|policyholder|user|caller|buyer|homeowner|new hire|hire|employee|person|individual)$/;
const PAST_ACCOUNT = /\b(?:was|were|had|did|said|says|told|took|updated|processed|submitted|reported|complained|confirmed|called|wrote|asked|explained|mentioned|received|requested|declined|refused|attended|completed|scored|answered|described)\b/i;
const CAPITALISED = /\b[A-Z][a-z]+\b/g;
/** A capitalised word that is not at a sentence start: probably a name, which may state the gender. */
function hasName(s: string): boolean {
  for (const w of matchesOf(CAPITALISED, s)) {
    if (NOT_NAME.has(w[0])) continue;
    const before = s.slice(0, w.index).trimEnd();
    if (before === '' || /[.!?:\n]$/.test(before)) continue;
    return true;
  }
  return false;
}

export function defaultGenderFindings(doc: PreparedText): Finding[] {
  const { text } = doc;
  const out: Finding[] = [];
  const seenPronoun = new Set<number>();
  for (const m of matchesOf(ROLE_RE, text)) {
    const role = m[1]!.toLowerCase();
    const roleEnd = m.index + m[0].length;
    // the gender is stated right before the role ("a female engineer", "the woman doctor")
    if (GENDER_WORD.test(m[0])) continue;
    const windowEnd = Math.min(text.length, roleEnd + 220);
    const win = text.slice(roleEnd, windowEnd);
    // stop at the end of the next sentence (the role's own sentence, then one more)
    const ends = matchesOf(SENTENCE_END, win);
    const stop = ends[1]?.index ?? -1;
    const scope = stop >= 0 ? win.slice(0, stop + 1) : win;
    PRONOUN_RE.lastIndex = 0;
    const p = PRONOUN_RE.exec(scope);
    if (!p) continue;
    const pStart = roleEnd + p.index;
    if (seenPronoun.has(pStart)) continue;
    const between = text.slice(m.index, pStart);
    // a name, a gendered word or an inclusive "he or she" means the gender is known or not assumed
    if (GENDER_WORD.test(between)) continue;
    // the role describes a known person ("Karen worked as our office manager", "she is a nurse")
    if (/\b(?:as|is|was|became|become|been|being|'s)\s+$/i.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
    // the same pronoun already refers to someone introduced before the role ("Priya … she mentors new analysts; she …")
    const masc0 = /^(?:he|him|his|himself)$/i.test(p[1]!);
    if ((masc0 ? /\b(?:he|him|his|himself)\b/i : /\b(?:she|her|hers|herself)\b/i).test(text.slice(Math.max(0, m.index - 200), m.index))) continue;
    if (hasName(between)) continue;
    // the request states the person's gender ("a 78-year-old customer who says she …") or a title does ("Mrs Hollis")
    if (GENDERED_QUERY.test(doc.query) || /\b(?:Mr|Mrs|Ms|Miss|Mx)\.?\s+[A-Z]/.test(text.slice(Math.max(0, m.index - 300), pStart)) || /\bpregnan/i.test(text.slice(Math.max(0, m.index - 200), pStart + 40))) continue;
    // the subject of a case (customer, candidate, patient …) named definitely in a past-tense account is a known
    // individual ("the customer updated her name"), not an assumed default; occupations keep the check
    if (CASE_SUBJECT.test(role) && /^(?:the|this|that|our|your)\b/i.test(m[0]) && PAST_ACCOUNT.test(between + text.slice(pStart, pStart + 60))) continue;
    if (/\b(?:he|she|his|her|him)\s*(?:or|\/)\s*(?:she|he|her|his|him)\b|\bs\/he\b/i.test(text.slice(pStart - 8, pStart + 12))) continue;
    if (insideQuote(doc.quotes, m.index, pStart)) continue;
    seenPronoun.add(pStart);
    const pron = p[1]!.toLowerCase();
    const masculine = /^(?:he|him|his|himself)$/.test(pron);
    const pro = (masculine && MALE_OCC.has(role)) || (!masculine && FEMALE_OCC.has(role));
    const anti = (masculine && FEMALE_OCC.has(role)) || (!masculine && MALE_OCC.has(role));
    const to = { he: 'they', she: 'they', him: 'them', her: 'them', his: 'their', hers: 'theirs', himself: 'themselves', herself: 'themselves' }[pron] ?? 'they';
    out.push({
      detector: 'language',
      detector_version: LANGUAGE_VERSION,
      bias_type: pro ? ['gender', 'stereotype', 'language'] : ['gender', 'language'],
      score: pro ? 0.6 : anti ? 0.4 : 0.5,
      explanation: `Assumes the gender of "${m[1]}" (gender not stated) by referring to them as "${p[1]}"${pro ? ', matching the occupational stereotype' : ''}.`,
      spans: [span(text, pStart, pStart + p[1]!.length), span(text, m.index, roleEnd)],
      suggestion: matchCase(p[1]!, to),
      metric: 'default_gender',
    });
  }
  return out;
}

export const languageDetector: Detector = {
  name: 'language',
  version: LANGUAGE_VERSION,
  detect: (doc, settings) => [...retextFindings(doc, settings), ...genderCodedFindings(doc), ...defaultGenderFindings(doc)],
};
