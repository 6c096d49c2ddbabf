import type { Finding } from '../../schemas/analysis';

/** Input every detector sees. Offsets in findings index into `text` (the stored llm_response). */
export interface DetectorInput {
  text: string;
  query: string;
  councilResponses?: { member_id: string; response: string }[];
}

export interface Detector {
  name: string;
  version: string;
  detect(input: DetectorInput): Finding[] | Promise<Finding[]>;
}
