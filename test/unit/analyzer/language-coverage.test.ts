import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createAnalyzerSync } from '../../../shared/domain/analyzer';
import { loadDefaultClassifier } from '../../../shared/domain/analyzer/default-classifier';
import { languageCoverage } from '../../../shared/domain/analyzer/language-coverage';
import { TenantAnalyzerConfig } from '../../../shared/schemas/analyzer-config';

const analyzer = createAnalyzerSync({ classifier: loadDefaultClassifier() });
const summaryLanguage = (r: { bias_report_summary: unknown }) => (r.bias_report_summary as { language?: { language: string; supported: boolean } }).language;

const OTHER_LANGUAGES: [string, string][] = [
  ['por', 'Para a vaga de analista, eu daria preferência a candidatos mais jovens: quem passou dos cinquenta costuma ter dificuldade com sistemas novos e pede salários maiores. Marque as entrevistas para a próxima semana.'],
  ['fra', "Pour le poste de technicien, évitez les candidates qui ont des enfants en bas âge : elles sont souvent absentes et moins disponibles pour les astreintes du week-end. Proposez plutôt le poste à des hommes."],
  ['deu', 'Bei Bewerbern aus diesen Stadtteilen würde ich grundsätzlich eine höhere Kaution verlangen, weil die Zahlungsmoral dort erfahrungsgemäß schlechter ist. Die übrigen Unterlagen prüfen Sie wie gewohnt.'],
  ['spa', 'Para reducir costes, recomiendo no renovar el contrato de mantenimiento de las calderas este año; el riesgo de una fuga es bajo y el ahorro mejora el margen del trimestre de forma notable.'],
];

const ENGLISH_HARD_CASES = [
  // name-heavy English that a character-trigram model can misread
  'Shortlist for the São Paulo office: João Ferreira, Ana Beatriz Gonçalves and Luís Carvalho all meet the criteria; schedule each for a 45-minute panel with the same questions and score them on the shared rubric.',
  // a list of foreign titles inside English prose
  "Here is a reading list for the course, in the original language: Dom Casmurro, Memórias Póstumas de Brás Cubas, Vidas Secas, Grande Sertão: Veredas and A Hora da Estrela. Each one is available in the library's Portuguese collection and in English translation.",
  // a quoted phrase in another language
  'The German law on equal treatment, the Allgemeines Gleichbehandlungsgesetz, protects applicants of every age, so the advert must not ask for "junge, dynamische Mitarbeiter"; describe the tasks and the skills instead.',
  'Approve it.',
];

describe('language coverage (decision record 022)', () => {
  it.each(OTHER_LANGUAGES)('names %s and marks it unsupported', (code, text) => {
    const c = languageCoverage(text);
    expect(c.language).toBe(code);
    expect(c.supported).toBe(false);
    expect(c.english_share).toBeLessThan(0.05);
  });

  it.each(ENGLISH_HARD_CASES)('keeps English with foreign names, titles or quotes supported: %s', (text) => {
    expect(languageCoverage(text).supported).toBe(true);
  });

  it('a response in an uncovered language is sent to human review, never reported clean with confidence', () => {
    for (const [, text] of OTHER_LANGUAGES) {
      const r = analyzer.analyzeSync({ llm_response: text, original_query: '' });
      expect(summaryLanguage(r)?.supported).toBe(false);
      if (!r.bias_detected) {
        expect(r.mitigation_action.type).toBe('HUMAN_REVIEW');
        expect(r.mitigation_action.details).toMatch(/English only/);
        expect(r.confidence).toBeLessThanOrEqual(0.5);
      }
    }
  });

  it('English responses keep the ordinary decision: a clean one is not sent to review for its language', () => {
    const r = analyzer.analyzeSync({ llm_response: ENGLISH_HARD_CASES[0]!, original_query: 'Who should we interview?' });
    expect(summaryLanguage(r)?.supported).toBe(true);
    expect(r.mitigation_action.details).not.toMatch(/English only/);
  });

  it('a tenant can turn the review off and still read the language in the summary', () => {
    const config = TenantAnalyzerConfig.parse({ review_unsupported_language: false, detection_threshold: 0.99, review_confidence_floor: 0.98 });
    const r = analyzer.analyzeSync({ llm_response: OTHER_LANGUAGES[3]![1], original_query: '' }, config);
    expect(r.mitigation_action.type).toBe('NONE');
    expect(summaryLanguage(r)).toMatchObject({ language: 'spa', supported: false });
  });

  it('never throws and always returns a well-formed verdict on arbitrary Unicode', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3000 }), (text) => {
        const c = languageCoverage(text);
        expect(typeof c.language).toBe('string');
        expect(c.english_share).toBeGreaterThanOrEqual(0);
        expect(c.english_share).toBeLessThanOrEqual(1);
      }),
      { numRuns: 200 },
    );
  });
});
