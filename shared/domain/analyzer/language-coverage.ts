// Language coverage (decision record 022): every detector, word list and the classifier are English. A response in
// another language scores near zero on all of them, so without this check a biased Portuguese answer would be
// reported as clean with high confidence. The share of common English function words settles most responses
// cheaply; franc names the language of the rest, and a response it reads as English (a table, a list of names) stays
// covered.
import { franc } from 'franc-min';

export const LANGUAGE_COVERAGE_VERSION = '1.0.0';

/** Languages the detectors were built and evaluated for (ISO 639-3). */
export const SUPPORTED_LANGUAGES: ReadonlySet<string> = new Set(['eng']);

/** Over the 7,689 fixtures, English prose has a median of 23% of these words; the 17 written wholly in another
 * language at most 0.7%, and the English ones franc misnamed (a list of Portuguese titles, a short sentence) 12% and 21%. */
const MIN_ENGLISH_SHARE = 0.05;
/** franc needs this much text to be reliable; shorter responses are assumed English. */
const MIN_LETTERS = 40;
const ENGLISH_FUNCTION_WORDS = new Set(
  // Words other Latin-script languages also use ("a", "as", "in", "an", "on", "was", "will") are left out.
  'the and of to is are be for that with it this you your we our or by at from not have has can if but they their them he she his its which should would'.split(' '),
);

export interface LanguageCoverage {
  /** ISO 639-3 code from franc, or 'und' when the text is too short to tell */
  language: string;
  /** share of word tokens that are common English function words */
  english_share: number;
  /** false when the response is in a language the detectors do not cover */
  supported: boolean;
  version: string;
}

export function languageCoverage(text: string): LanguageCoverage {
  // franc is linear in the text length; the first 4,000 characters name the language as well as the whole.
  const sample = text.slice(0, 4000);
  const tokens = sample.toLowerCase().match(/\p{L}+/gu) ?? [];
  const english_share = Math.round((tokens.filter((t) => ENGLISH_FUNCTION_WORDS.has(t)).length / Math.max(1, tokens.length)) * 1000) / 1000;
  const letters = tokens.reduce((n, t) => n + t.length, 0);
  if (letters < MIN_LETTERS) return { language: 'und', english_share, supported: true, version: LANGUAGE_COVERAGE_VERSION };
  // English prose clears the share on its own; franc (about 1 ms on 2 KB) runs only for the rest.
  if (english_share >= MIN_ENGLISH_SHARE) return { language: 'eng', english_share, supported: true, version: LANGUAGE_COVERAGE_VERSION };
  const language = franc(sample, { minLength: MIN_LETTERS });
  return { language, english_share, supported: SUPPORTED_LANGUAGES.has(language) || language === 'und', version: LANGUAGE_COVERAGE_VERSION };
}
