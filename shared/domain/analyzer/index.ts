// Analyzer entry point: prepares the text once, runs the tenant's enabled detectors and assembles the
// FR-BIAS-4.3.2 BiasReport (report.ts). Everything expensive (retext processor, wink model, lexicon regexes,
// classifier weights) is built at module load / createAnalyzer, never per request.
import type { AnalyzeBiasRequest, BiasReport, Finding } from '../../schemas/analysis';
import { defaultTenantAnalyzerConfig, type DetectorName, type DomainRule, type TenantAnalyzerConfig } from '../../schemas/analyzer-config';
import type { AxisPredictor } from './classifier/axes';
import { loadDefaultAxisPredictor } from './default-axes';
import type { DetectorSettings, PreparedText } from './detector';
import { runClassifier, type TextClassifier } from './detectors/classifier';
import { COUNCIL_VERSION, detectCouncil, type CouncilReport } from './detectors/council';
import { DEFAULT_RULES, detectDomainRules, DOMAIN_RULES_VERSION } from './detectors/domain-rules';
import { defaultGenderFindings, genderCodedFindings, LANGUAGE_VERSION, retextFindings } from './detectors/language';
import { detectSentimentDisparity, SENTIMENT_VERSION } from './detectors/sentiment';
import { detectStereotypes, STEREOTYPE_VERSION } from './detectors/stereotype';
import { detectToxicity, TOXICITY_VERSION } from './detectors/toxicity';
import { findGroupMentions } from './groups';
import { languageCoverage } from './language-coverage';
import { assembleReport, DEFAULT_DECISION, type DecisionModel, type DetectorRun } from './report';
import { quotedRanges, splitSentences } from './text';

export type { TextClassifier } from './detectors/classifier';
export { DEFAULT_RULES } from './detectors/domain-rules';

export const ANALYZER_VERSION = '1.0.0';

export interface Analyzer {
  analyze(request: AnalyzeBiasRequest, tenantConfig?: TenantAnalyzerConfig): Promise<BiasReport>;
  /** Synchronous core, used by the evaluation and benchmarks. */
  analyzeSync(request: AnalyzeBiasRequest, tenantConfig?: TenantAnalyzerConfig): BiasReport;
}

export interface AnalyzerOptions {
  /** The learned classifier (`loadDefaultClassifier()` for the committed one); null runs the rules alone. Required,
   * so that a caller cannot get a rules-only analyzer by leaving it out. */
  classifier: TextClassifier | null;
  /** The decision model; undefined = the committed decision.json (decision record 015). */
  decision?: DecisionModel;
  /** Names the axis of a detected response no group mention names (decision record 017); undefined = the committed
   * axes.json whenever a classifier is given, null = never. */
  axes?: AxisPredictor | null;
}

export function prepareText(text: string, query = '', councilResponses?: { member_id: string; response: string }[]): PreparedText {
  const sentences = splitSentences(text);
  const mentionsBySentence = sentences.map((s) => findGroupMentions(s.text, s.start));
  return {
    text,
    query,
    sentences,
    mentions: mentionsBySentence.flat(),
    mentionsBySentence,
    quotes: quotedRanges(text),
    ...(councilResponses ? { councilResponses } : {}),
  };
}

export function resolveRules(config: TenantAnalyzerConfig): DomainRule[] {
  const tenant = config.domain_rules ?? [];
  if (!config.domain_rules || config.extend_default_rules) {
    const overridden = new Set(tenant.map((r) => r.id));
    return [...DEFAULT_RULES.filter((r) => !overridden.has(r.id)), ...tenant];
  }
  return tenant;
}

export function settingsFor(config: TenantAnalyzerConfig): DetectorSettings {
  return {
    allowList: config.allow_list.map((a) => a.toLowerCase().trim()),
    rules: resolveRules(config),
    council: { coverageVarianceThreshold: config.council.coverage_variance_threshold, extraLexicon: config.council.extra_lexicon },
  };
}

const ms = (t0: number) => Math.round((performance.now() - t0) * 1000) / 1000;

/** Runs the enabled detectors over a prepared text. */
export function runDetectors(doc: PreparedText, config: TenantAnalyzerConfig, classifier: TextClassifier | null): DetectorRun {
  const enabled = new Set<DetectorName>(config.enabled_detectors);
  const settings = settingsFor(config);
  const findings: Finding[] = [];
  const versions: Record<string, string> = {};
  const timings: Record<string, number> = {};
  const metrics: DetectorRun['metrics'] = {};
  let council: CouncilReport | null = null;
  const time = (name: string, version: string, fn: () => void) => {
    if (!enabled.has(name as DetectorName)) return;
    const t0 = performance.now();
    fn();
    timings[name] = ms(t0);
    versions[name] = version;
  };
  time('language', LANGUAGE_VERSION, () => findings.push(...retextFindings(doc, settings), ...genderCodedFindings(doc), ...defaultGenderFindings(doc)));
  time('stereotype', STEREOTYPE_VERSION, () => findings.push(...detectStereotypes(doc)));
  time('toxicity', TOXICITY_VERSION, () => findings.push(...detectToxicity(doc)));
  time('sentiment_disparity', SENTIMENT_VERSION, () => {
    const r = detectSentimentDisparity(doc);
    findings.push(...r.findings);
    metrics.sentiment_divergence = r.divergence;
  });
  time('domain_rules', DOMAIN_RULES_VERSION, () => findings.push(...detectDomainRules(doc, settings.rules)));
  if (classifier) {
    time('classifier', `1.0.0+${classifier.version}`, () => {
      const r = runClassifier(doc, classifier);
      findings.push(...r.findings);
      metrics.classifier_score = r.score;
      metrics.classifier_whole = r.whole;
      metrics.classifier_top = r.top;
    });
  }
  time('council_disagreement', COUNCIL_VERSION, () => {
    const r = detectCouncil(doc, settings.council.extraLexicon, settings.council.coverageVarianceThreshold);
    findings.push(...r.findings);
    council = r.report;
  });
  // Allow-listed phrases silence every detector's findings whose evidence is exactly that phrase.
  const allowed = settings.allowList.length ? new Set(settings.allowList) : null;
  const kept = allowed ? findings.filter((f) => !f.spans.length || !f.spans.every((s) => allowed.has(s.text.toLowerCase().trim()))) : findings;
  return { findings: kept, versions, timings, metrics, council };
}

export function createAnalyzerSync(options: AnalyzerOptions): Analyzer {
  const classifier = options.classifier;
  const decision = options.decision ?? DEFAULT_DECISION;
  const axes = options.axes !== undefined ? options.axes : classifier ? loadDefaultAxisPredictor() : null;
  const analyzeSync = (request: AnalyzeBiasRequest, tenantConfig?: TenantAnalyzerConfig): BiasReport => {
    const config = tenantConfig ?? defaultTenantAnalyzerConfig();
    const t0 = performance.now();
    const doc = prepareText(request.llm_response, request.original_query ?? '', request.council_responses);
    const prepareMs = ms(t0);
    const run = runDetectors(doc, config, config.enabled_detectors.includes('classifier') ? classifier : null);
    // Is the prompt itself asking for the bias? (drives REPHRASE_PROMPT)
    const queryDoc = request.original_query ? prepareText(request.original_query) : null;
    const queryFindings = queryDoc ? detectStereotypes(queryDoc).concat(detectToxicity(queryDoc)) : [];
    const tc = performance.now();
    const coverage = languageCoverage(request.llm_response);
    run.timings.language_coverage = ms(tc);
    return assembleReport({ doc, run, config, decision, axes, queryFindings, coverage, prepareMs, totalMs: ms(t0), analyzerVersion: ANALYZER_VERSION });
  };
  return {
    analyzeSync,
    analyze: async (request, tenantConfig) => analyzeSync(request, tenantConfig),
  };
}

/** Kept async for the composition root (shared/app/context.ts). */
export async function createAnalyzer(options: AnalyzerOptions): Promise<Analyzer> {
  return createAnalyzerSync(options);
}
