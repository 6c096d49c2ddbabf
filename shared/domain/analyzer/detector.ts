import type { Finding } from '../../schemas/analysis';
import type { DomainRule } from '../../schemas/analyzer-config';
import type { GroupMention } from './groups';
import type { Sentence } from './text';

/** Input every detector sees, prepared once per request. Offsets in findings index into `text` (llm_response). */
export interface PreparedText {
  text: string;
  query: string;
  sentences: Sentence[];
  mentions: GroupMention[];
  /** Group mentions per sentence index. */
  mentionsBySentence: GroupMention[][];
  /** Character ranges inside quotation marks. */
  quotes: [number, number][];
  councilResponses?: { member_id: string; response: string }[];
}

/** Per-request settings derived from the tenant's analyzer config. */
export interface DetectorSettings {
  /** Lower-cased words or phrases the tenant accepts. */
  allowList: string[];
  rules: DomainRule[];
  council: { coverageVarianceThreshold: number; extraLexicon: Record<string, string[]> };
}

export interface Detector {
  name: string;
  version: string;
  detect(doc: PreparedText, settings: DetectorSettings): Finding[];
}
