// Every query and mutation of the GraphQL API against the emulators: filters, both pagination styles, sorting,
// review, taxonomy, tenant rules, explain, decision, task suggestions and the pooled report.
import { beforeAll, describe, expect, it } from 'vitest';
import { isServed } from '../../../shared/adapters/firestore/index-coverage';
import { withAnalysisFailure } from '../../../shared/domain/audit/record';
import { defaultTenantAnalyzerConfig, TenantAnalyzerConfig } from '../../../shared/schemas/analyzer-config';
import { fromAnalyzerConfigDoc } from '../../../shared/schemas/analyzer-config-doc';
import { TOPICS } from '../../../shared/topology';
import indexFile from '../../../firestore.indexes.json';
import { uniqueTenant } from '../../support/tenants';
import { codes, createHarness, firestore, seedAudit, type Harness } from './harness';

const AUDIT_FIELDS = `id tenantId userId userEmail userRole queryContext queryContextJson originalQuery llmProvider llmModel
  sanitizedPrompt llmResponse promptTokens responseTokens estimatedCostUsd redactionSummary sensitivityScore containedPii
  containedProprietary containedCustomerData status errorMessage logTimestamp biasDetected biasType biasScore
  biasConfidenceScore biasSeverity mitigationAction biasReportSummary biasStatus humanReviewed humanBiasTag reviewNotes
  reviewVerdict reviewedBy reviewedAt traceId decisionId promptHash outputHash createdAt chainValid`;

interface Seed {
  id: string;
  userId: string;
  provider: string;
  model: string;
  sensitivity: 'public' | 'internal' | 'confidential' | 'restricted';
  biased: boolean;
  types: string[];
  confidence: number | null;
  at: string;
  decision?: string;
}

const SEEDS: Seed[] = [
  { id: 'a1', userId: 'u1', provider: 'openai', model: 'gpt-4o-mini', sensitivity: 'internal', biased: true, types: ['gender'], confidence: 0.9, at: '2026-11-01T10:00:00.000Z', decision: 'd1' },
  { id: 'a2', userId: 'u2', provider: 'anthropic', model: 'claude-3', sensitivity: 'confidential', biased: true, types: ['toxicity'], confidence: 0.7, at: '2026-11-02T10:00:00.000Z', decision: 'd1' },
  { id: 'a3', userId: 'u1', provider: 'openai', model: 'gpt-4o', sensitivity: 'public', biased: false, types: [], confidence: 0.1, at: '2026-11-03T10:00:00.000Z' },
  { id: 'a4', userId: 'u3', provider: 'google', model: 'gemini', sensitivity: 'restricted', biased: true, types: ['language'], confidence: 0.55, at: '2026-11-04T10:00:00.000Z' },
  { id: 'a5', userId: 'u2', provider: 'openai', model: 'gpt-4o-mini', sensitivity: 'internal', biased: false, types: [], confidence: null, at: '2026-11-05T10:00:00.000Z' },
  { id: 'a6', userId: 'u1', provider: 'openai', model: 'gpt-4o-mini', sensitivity: 'internal', biased: true, types: ['gender', 'stereotype'], confidence: 0.8, at: '2026-11-06T10:00:00.000Z', decision: 'd1' },
];

let h: Harness;
let tenant: string;
let viewer: string;
let reviewer: string;
let admin: string;
let service: string;

beforeAll(async () => {
  h = await createHarness();
  tenant = uniqueTenant('gqa');
  [viewer, reviewer, admin, service] = await Promise.all([h.token(tenant, 'viewer'), h.token(tenant, 'reviewer', 'rev-1'), h.token(tenant, 'admin'), h.token(tenant, 'service', 'analyzer-svc')]);
  for (const s of SEEDS) {
    await seedAudit(h, tenant, {
      input: {
        interaction_id: s.id,
        user_id: s.userId,
        llm_provider: s.provider,
        llm_model: s.model,
        sensitivity_score: s.sensitivity,
        log_timestamp: s.at,
        ...(s.decision ? { decision_id: s.decision } : {}),
        query_context: { domain: 'hiring' },
      },
      report:
        s.confidence === null
          ? null
          : {
              bias_detected: s.biased,
              bias_type: s.types,
              confidence: s.confidence,
              mitigation_action: s.biased ? { type: 'REPHRASE_RESPONSE', details: 'neutral wording' } : { type: 'NONE', details: '' },
              bias_report_summary: {
                detector_versions: { language: '1.2.0' },
                findings: s.biased
                  ? [{ detector: 'language', detector_version: '1.2.0', bias_type: s.types, score: s.confidence, explanation: 'gendered term', spans: [{ start: 2, end: 8, text: 'strong' }] }]
                  : [],
              },
            },
    });
  }
  // a4 is reviewed and confirmed before the filter tests.
  const r = await h.gql(`mutation { recordBiasReview(id: "a4", input: { humanReviewed: true, verdict: CONFIRMED, humanBiasTag: ["language"] }) { id } }`, {}, reviewer);
  expect(r.body.errors).toBeUndefined();
});

const ids = (list: { id: string }[] | undefined | null) => (list ?? []).map((a) => a.id);
const sortIds = (xs: string[]) => [...xs].sort();

describe('reads', () => {
  it('llmInteractionAudit returns every FSD field', async () => {
    const r = await h.gql(`query($id: ID!) { llmInteractionAudit(id: $id) { ${AUDIT_FIELDS} events { seq type actor hash prevHash } } }`, { id: 'a1' }, viewer);
    expect(r.body.errors).toBeUndefined();
    const a = r.body.data!.llmInteractionAudit;
    expect(a).toMatchObject({ id: 'a1', tenantId: tenant, userId: 'u1', llmProvider: 'openai', biasDetected: true, biasType: ['gender'], biasConfidenceScore: 0.9, biasSeverity: 4, decisionId: 'd1', chainValid: true, humanReviewed: false });
    expect(JSON.parse(a.queryContext)).toEqual({ domain: 'hiring' });
    expect(a.events.map((e: { type: string }) => e.type)).toEqual(['created', 'bias_analyzed']);
    expect(a.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  const cases: [string, Record<string, unknown>, (s: Seed) => boolean][] = [
    ['userId', { userId: 'u1' }, (s) => s.userId === 'u1'],
    ['llmProvider', { llmProvider: 'openai' }, (s) => s.provider === 'openai'],
    ['llmModel', { llmModel: 'gpt-4o' }, (s) => s.model === 'gpt-4o'],
    ['sensitivityScore', { sensitivityScore: 'confidential' }, (s) => s.sensitivity === 'confidential'],
    ['biasDetected', { biasDetected: true }, (s) => s.biased],
    ['humanReviewed', { humanReviewed: true }, (s) => s.id === 'a4'],
    ['logTimestamp window', { logTimestampStart: '2026-11-02T00:00:00Z', logTimestampEnd: '2026-11-04T23:00:00Z' }, (s) => s.at >= '2026-11-02' && s.at <= '2026-11-04T23'],
    ['biasType', { biasType: 'gender' }, (s) => s.types.includes('gender')],
    ['biasStatus', { biasStatus: 'PENDING' }, (s) => s.confidence === null],
    ['decisionId', { decisionId: 'd1' }, (s) => s.decision === 'd1'],
    ['reviewVerdict', { reviewVerdict: 'CONFIRMED' }, (s) => s.id === 'a4'],
    ['minConfidence', { minConfidence: 0.6 }, (s) => (s.confidence ?? -1) >= 0.6],
    ['tenantId equal to the token', { tenantId: '__T__' }, () => true],
    ['two equalities (index merge)', { biasDetected: true, llmProvider: 'openai' }, (s) => s.biased && s.provider === 'openai'],
    ['equality + range off the sort field (in memory)', { biasDetected: true, minConfidence: 0.75 }, (s) => s.biased && (s.confidence ?? 0) >= 0.75],
    ['two equalities + time range (in memory)', { userId: 'u1', llmProvider: 'openai', logTimestampStart: '2026-11-02T00:00:00Z' }, (s) => s.userId === 'u1' && s.provider === 'openai' && s.at >= '2026-11-02'],
  ];

  it.each(cases)('llmInteractionAudits filters by %s (both pagination styles agree)', async (_name, rawFilter, predicate) => {
    const filter = JSON.parse(JSON.stringify(rawFilter).replace('__T__', tenant)) as Record<string, unknown>;
    const expected = sortIds(SEEDS.filter(predicate).map((s) => s.id));
    const list = await h.gql(`query($f: LlmInteractionAuditFilterInput) { llmInteractionAudits(filter: $f, pagination: { limit: 100 }) { id } }`, { f: filter }, viewer);
    expect(list.body.errors).toBeUndefined();
    expect(sortIds(ids(list.body.data!.llmInteractionAudits))).toEqual(expected);
    const conn = await h.gql(`query($f: LlmInteractionAuditFilterInput) { llmInteractionAuditConnection(filter: $f, first: 100) { edges { node { id } } pageInfo { hasNextPage } } }`, { f: filter }, viewer);
    expect(conn.body.errors).toBeUndefined();
    expect(sortIds(conn.body.data!.llmInteractionAuditConnection.edges.map((e: { node: { id: string } }) => e.node.id))).toEqual(expected);
    expect(conn.body.data!.llmInteractionAuditConnection.pageInfo.hasNextPage).toBe(false);
  });

  it('sorts by confidence, time and severity in both directions', async () => {
    const q = `query($s: AuditSortInput) { llmInteractionAudits(filter: { biasStatus: ANALYZED }, sort: $s, pagination: { limit: 100 }) { id biasConfidenceScore logTimestamp } }`;
    const analyzed = SEEDS.filter((s) => s.confidence !== null);
    const byConf = await h.gql(q, { s: { field: 'CONFIDENCE', direction: 'DESC' } }, viewer);
    const confs = byConf.body.data!.llmInteractionAudits.map((a: { biasConfidenceScore: number }) => a.biasConfidenceScore);
    expect(confs).toEqual([...analyzed.map((s) => s.confidence)].sort((a, b) => b! - a!));
    const byTime = await h.gql(q, { s: { field: 'LOG_TIMESTAMP', direction: 'ASC' } }, viewer);
    expect(ids(byTime.body.data!.llmInteractionAudits)).toEqual([...analyzed].sort((a, b) => a.at.localeCompare(b.at)).map((s) => s.id));
    const confAsc = await h.gql(q, { s: { field: 'CONFIDENCE', direction: 'ASC' } }, viewer);
    expect(confAsc.body.data!.llmInteractionAudits.map((a: { biasConfidenceScore: number }) => a.biasConfidenceScore)).toEqual([...confs].reverse());
    // Severity sort reads the stored bias_severity (see docs/decisions/031): simulate the proposed write-path field.
    const severities = new Map<string, number>();
    for (const s of analyzed) {
      const sev = s.types.length ? Math.max(...s.types.map((t) => ({ gender: 4, toxicity: 5, language: 2, stereotype: 4 })[t] ?? 0)) : 0;
      severities.set(s.id, sev);
      await firestore().doc(`tenants/${tenant}/audits/${s.id}`).update({ bias_severity: sev });
    }
    const bySev = await h.gql(`query { llmInteractionAudits(filter: { biasStatus: ANALYZED }, sort: { field: SEVERITY, direction: DESC }, pagination: { limit: 100 }) { id biasSeverity chainValid } }`, {}, viewer);
    const got = bySev.body.data!.llmInteractionAudits as { id: string; biasSeverity: number | null; chainValid: boolean }[];
    expect(got.map((a) => severities.get(a.id))).toEqual([...severities.values()].sort((a, b) => b - a));
    // The derived field is outside the sealed record: the chain stays valid.
    expect(got.every((a) => a.chainValid)).toBe(true);
  });

  it('offset pagination walks the whole list without gaps or repeats', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 10; offset += 2) {
      const r = await h.gql(`query($o: Int) { llmInteractionAudits(pagination: { limit: 2, offset: $o }, sort: { field: LOG_TIMESTAMP, direction: DESC }) { id } }`, { o: offset }, viewer);
      seen.push(...ids(r.body.data!.llmInteractionAudits));
    }
    expect(seen).toEqual([...SEEDS].sort((a, b) => b.at.localeCompare(a.at)).map((s) => s.id));
  });

  it.each([
    ['no residual filter', {}, () => true],
    ['a residual (in-memory) filter', { biasDetected: true, minConfidence: 0.6 }, (s: Seed) => s.biased && (s.confidence ?? 0) >= 0.6],
  ] as const)('cursor pagination with %s pages through every match once', async (_n, filter, predicate) => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const r = await h.gql(
        `query($f: LlmInteractionAuditFilterInput, $a: String) { llmInteractionAuditConnection(filter: $f, first: 2, after: $a, sort: { field: CONFIDENCE, direction: DESC }) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`,
        { f: filter, a: after },
        viewer,
      );
      expect(r.body.errors).toBeUndefined();
      const c = r.body.data!.llmInteractionAuditConnection;
      seen.push(...c.edges.map((e: { node: { id: string } }) => e.node.id));
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    const expected = SEEDS.filter((s) => s.confidence !== null && (predicate as (s: Seed) => boolean)(s))
      .sort((a, b) => b.confidence! - a.confidence!)
      .map((s) => s.id);
    // PENDING audits (confidence null) sort last in DESC order.
    const pending = (predicate as (s: Seed) => boolean)(SEEDS[4]!) ? ['a5'] : [];
    expect(seen).toEqual([...expected, ...pending]);
  });

  it('refuses a cursor issued for another sort and oversize pages', async () => {
    const r = await h.gql(`{ llmInteractionAuditConnection(first: 1, sort: { field: CONFIDENCE }) { pageInfo { endCursor } } }`, {}, viewer);
    const cursor = r.body.data!.llmInteractionAuditConnection.pageInfo.endCursor;
    const wrong = await h.gql(`query($a: String) { llmInteractionAuditConnection(first: 1, after: $a, sort: { field: LOG_TIMESTAMP }) { edges { cursor } } }`, { a: cursor }, viewer);
    expect(codes(wrong)).toEqual(['VALIDATION_FAILED']);
    const garbage = await h.gql(`{ llmInteractionAuditConnection(first: 1, after: "not-a-cursor") { edges { cursor } } }`, {}, viewer);
    expect(codes(garbage)).toEqual(['VALIDATION_FAILED']);
    const big = await h.gql(`{ llmInteractionAudits(pagination: { limit: 1000 }) { id } }`, {}, viewer);
    expect(codes(big)).toEqual(['VALIDATION_FAILED']);
  });

  it('every query shape issued during this file is backed by a declared index', () => {
    expect(h.shapes.length).toBeGreaterThan(10);
    const missing = h.shapes.filter((s) => !isServed(s, indexFile.indexes as never));
    expect(missing).toEqual([]);
  });
});

describe('explain and decision', () => {
  it('explain returns template, masked variables, findings with spans, detector versions, mitigation, trail and chain', async () => {
    await seedAudit(h, tenant, {
      input: { interaction_id: 'ex1', prompt_template: 'hiring-advice.en', prompt_variables: { candidate: 'Jane', email: 'jane@example.com' } },
      report: {
        bias_detected: true,
        bias_type: ['gender'],
        confidence: 0.82,
        mitigation_action: { type: 'REPHRASE_RESPONSE', details: 'use "they"' },
        bias_report_summary: {
          detector_versions: { language: '1.2.0', stereotype: '0.9.1' },
          findings: [{ detector: 'language', detector_version: '1.2.0', bias_type: ['gender'], score: 0.82, explanation: 'gendered role noun', spans: [{ start: 4, end: 12, text: 'chairman' }], suggestion: 'chair' }],
        },
      },
    });
    await h.gql(`mutation { recordBiasReview(id: "ex1", input: { humanReviewed: true, verdict: DISMISSED, reviewNotes: "historic title" }) { id } }`, {}, reviewer);
    const r = await h.gql(
      `{ explain(auditId: "ex1") { auditId promptTemplate promptVariables machineVerdict { biasDetected confidence } findings { detector detectorVersion score spans { start end text } suggestion }
         detectorVersions { detector version } mitigation review { verdict reviewNotes reviewedBy } reviewTrail { type actor payload } chainValid } }`,
      {},
      viewer,
    );
    expect(r.body.errors).toBeUndefined();
    const e = r.body.data!.explain;
    expect(e.promptTemplate).toBe('hiring-advice.en');
    expect(JSON.stringify(e.promptVariables)).not.toContain('jane@example.com');
    expect(e.findings[0].spans[0]).toEqual({ start: 4, end: 12, text: 'chairman' });
    expect(e.detectorVersions).toEqual([{ detector: 'language', version: '1.2.0' }, { detector: 'stereotype', version: '0.9.1' }]);
    expect(e.mitigation.type).toBe('REPHRASE_RESPONSE');
    expect(e.machineVerdict.biasDetected).toBe(true);
    expect(e.review).toMatchObject({ verdict: 'DISMISSED', reviewNotes: 'historic title', reviewedBy: 'rev-1' });
    expect(e.reviewTrail).toHaveLength(1);
    expect(e.reviewTrail[0].payload.verdict).toBe('DISMISSED');
    expect(e.chainValid).toBe(true);
  });

  it('explain of a failed analysis carries BIAS_ANALYSIS_FAILED on findings and the rest of the bundle', async () => {
    await seedAudit(h, tenant, { input: { interaction_id: 'fail1' } });
    await h.deps.store.applyEvent(tenant, 'fail1', null, (c) => ({
      draft: { type: 'analysis_failed', at: new Date().toISOString(), key: null, actor: 'analyzer', payload: { error: 'TRANSIENT' } },
      next: withAnalysisFailure(c, 'TRANSIENT'),
    }));
    const r = await h.gql(`{ explain(auditId: "fail1") { auditId machineVerdict { biasStatus } findings { detector } chainValid } }`, {}, viewer);
    expect(codes(r)).toEqual(['BIAS_ANALYSIS_FAILED']);
    expect(r.body.data!.explain).toMatchObject({ auditId: 'fail1', machineVerdict: { biasStatus: 'BIAS_ANALYSIS_FAILED' }, findings: null, chainValid: true });
  });

  it('decision returns its interactions and bias events in time order', async () => {
    const r = await h.gql(`{ decision(id: "d1") { id interactions { id logTimestamp biasDetected } biasEvents { auditId type at biasDetected } biasedInteractionCount firstBiasedAuditId } }`, {}, viewer);
    expect(r.body.errors).toBeUndefined();
    const d = r.body.data!.decision;
    const expected = SEEDS.filter((s) => s.decision === 'd1').sort((a, b) => a.at.localeCompare(b.at));
    expect(ids(d.interactions)).toEqual(expected.map((s) => s.id));
    const ats = d.biasEvents.map((e: { at: string }) => e.at);
    expect(ats).toEqual([...ats].sort());
    expect(new Set(d.biasEvents.map((e: { auditId: string }) => e.auditId))).toEqual(new Set(expected.map((s) => s.id)));
    expect(d.biasedInteractionCount).toBe(expected.filter((s) => s.biased).length);
    expect(d.firstBiasedAuditId).toBe(expected.find((s) => s.biased)!.id);
    const missing = await h.gql(`{ decision(id: "nope") { id } }`, {}, viewer);
    expect(codes(missing)).toEqual(['NOT_FOUND']);
  });
});

describe('mutations', () => {
  it('updateLlmInteractionAuditBias (service) goes through the analyzer path: event, stream publish, chain valid', async () => {
    const id = await seedAudit(h, tenant, { input: { interaction_id: 'up1' } });
    const before = h.published.length;
    const r = await h.gql(
      `mutation($id: ID!) { updateLlmInteractionAuditBias(id: $id, input: { biasDetected: true, biasType: ["age"], biasScore: { age_score: 0.7 }, biasConfidenceScore: 0.77, mitigationAction: { type: "HUMAN_REVIEW", details: "check" }, biasReportSummary: { findings: [] } }) { id biasDetected biasType biasConfidenceScore biasStatus events { type actor } chainValid } }`,
      { id },
      service,
    );
    expect(r.body.errors).toBeUndefined();
    const a = r.body.data!.updateLlmInteractionAuditBias;
    expect(a).toMatchObject({ biasDetected: true, biasType: ['age'], biasConfidenceScore: 0.77, biasStatus: 'ANALYZED', chainValid: true });
    expect(a.events.at(-1)).toEqual({ type: 'bias_analyzed', actor: 'analyzer-svc' });
    const stream = h.published.slice(before).filter((p) => p.topic === TOPICS.auditStream);
    expect(stream).toHaveLength(1);
    expect(stream[0]!.payload).toMatchObject({ audit_id: 'up1', tenant_id: tenant, bias_detected: true, bias_type: ['age'] });
    const bad = await h.gql(`mutation { updateLlmInteractionAuditBias(id: "up1", input: { biasConfidenceScore: 3 }) { id } }`, {}, service);
    expect(codes(bad)).toEqual(['VALIDATION_FAILED']);
    const wrongTrace = await h.gql(`mutation { updateLlmInteractionAuditBias(id: "up1", input: { traceId: "ffffffffffffffffffffffffffffffff" }) { id } }`, {}, service);
    expect(codes(wrongTrace)).toEqual(['VALIDATION_FAILED']);
  });

  it('recordBiasReview keeps the machine verdict, appends a reviewed event and publishes bias-reviews', async () => {
    const before = h.published.length;
    const r = await h.gql(
      `mutation { recordBiasReview(id: "a1", input: { humanReviewed: true, verdict: DISMISSED, humanBiasTag: "stereotype", reviewNotes: "quoted source", idempotencyKey: "k1" }) { id biasDetected biasType humanReviewed reviewVerdict humanBiasTag reviewNotes reviewedBy reviewedAt events { type actor payload } chainValid } }`,
      {},
      reviewer,
    );
    expect(r.body.errors).toBeUndefined();
    const a = r.body.data!.recordBiasReview;
    expect(a).toMatchObject({ biasDetected: true, biasType: ['gender'], humanReviewed: true, reviewVerdict: 'DISMISSED', humanBiasTag: ['stereotype'], reviewNotes: 'quoted source', reviewedBy: 'rev-1', chainValid: true });
    expect(a.events.at(-1)).toMatchObject({ type: 'reviewed', actor: 'rev-1', payload: { verdict: 'DISMISSED', machine_bias_detected: true } });
    const reviews = h.published.slice(before).filter((p) => p.topic === TOPICS.reviews);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.payload).toMatchObject({ audit_id: 'a1', verdict: 'DISMISSED', machine_bias_detected: true, reviewer_id: 'rev-1' });
    // A retry with the same key appends nothing new.
    const again = await h.gql(`mutation { recordBiasReview(id: "a1", input: { humanReviewed: true, verdict: DISMISSED, humanBiasTag: "stereotype", reviewNotes: "quoted source", idempotencyKey: "k1" }) { events { seq } } }`, {}, reviewer);
    expect(again.body.data!.recordBiasReview.events).toHaveLength(a.events.length);
    const unknownTag = await h.gql(`mutation { recordBiasReview(id: "a1", input: { humanReviewed: true, humanBiasTag: ["not_a_key"] }) { id } }`, {}, reviewer);
    expect(codes(unknownTag)).toEqual(['VALIDATION_FAILED']);
  });

  it('taxonomy: admins add tenant entries, global ones are read-only, other tenants do not see them', async () => {
    const list = await h.gql(`{ biasTaxonomy { biasKey severityLevel scope } }`, {}, viewer);
    expect(list.body.data!.biasTaxonomy.find((t: { biasKey: string }) => t.biasKey === 'gender')).toMatchObject({ severityLevel: 4, scope: 'global' });
    const add = await h.gql(`mutation { upsertBiasTaxonomyEntry(input: { biasKey: "regional_dialect", description: "Penalises dialect", severityLevel: 2 }) { biasKey scope updatedBy } }`, {}, admin);
    expect(add.body.data!.upsertBiasTaxonomyEntry).toMatchObject({ biasKey: 'regional_dialect', scope: 'tenant' });
    const mine = await h.gql(`{ biasTaxonomy { biasKey } }`, {}, viewer);
    expect(ids(mine.body.data!.biasTaxonomy.map((t: { biasKey: string }) => ({ id: t.biasKey })))).toContain('regional_dialect');
    const other = uniqueTenant('gqo');
    const theirs = await h.gql(`{ biasTaxonomy { biasKey } }`, {}, await h.token(other, 'viewer'));
    expect(theirs.body.data!.biasTaxonomy.map((t: { biasKey: string }) => t.biasKey)).not.toContain('regional_dialect');
    expect(codes(await h.gql(`mutation { upsertBiasTaxonomyEntry(input: { biasKey: "gender", description: "x", severityLevel: 1 }) { biasKey } }`, {}, admin))).toEqual(['FORBIDDEN']);
    expect(codes(await h.gql(`mutation { upsertBiasTaxonomyEntry(input: { biasKey: "x_y", description: "x", severityLevel: 7 }) { biasKey } }`, {}, admin))).toEqual(['VALIDATION_FAILED']);
    expect(codes(await h.gql(`mutation { upsertBiasTaxonomyEntry(input: { biasKey: "x_y", description: "x", severityLevel: 2 }) { biasKey } }`, {}, reviewer))).toEqual(['FORBIDDEN']);
    // The tenant entry is now a valid review tag.
    const tagged = await h.gql(`mutation { recordBiasReview(id: "a3", input: { humanReviewed: true, humanBiasTag: ["regional_dialect"] }) { humanBiasTag } }`, {}, reviewer);
    expect(tagged.body.data!.recordBiasReview.humanBiasTag).toEqual(['regional_dialect']);
  });

  it('tenant analyzer config: thresholds, detectors, allow-list and domain rules, stored for the analyzer', async () => {
    const t = uniqueTenant('gqc');
    const adm = await h.token(t, 'admin');
    const d = await h.gql(`{ tenantAnalyzerConfig { detectionThreshold version enabledDetectors } }`, {}, adm);
    expect(d.body.data!.tenantAnalyzerConfig).toMatchObject({ detectionThreshold: defaultTenantAnalyzerConfig().detection_threshold, version: 0 });
    const u = await h.gql(
      `mutation { updateTenantAnalyzerConfig(input: { detectionThreshold: 0.7, detectorThresholds: { toxicity: 0.8 }, enabledDetectors: ["language", "toxicity"], allowList: ["Chairman Mao Lounge"] }) { detectionThreshold detectorThresholds enabledDetectors allowList version updatedBy } }`,
      {},
      adm,
    );
    expect(u.body.errors).toBeUndefined();
    expect(u.body.data!.updateTenantAnalyzerConfig).toMatchObject({ detectionThreshold: 0.7, detectorThresholds: { toxicity: 0.8 }, enabledDetectors: ['language', 'toxicity'], version: 1 });
    const rule = await h.gql(
      `mutation { upsertDomainRule(input: { id: "profit_first", biasType: ["domain_profit_over_sustainability"], description: "margin over safety", all: [["margin", "profit"], ["ignore|skip"]], window: 2 }) { domainRules { id enabled score window } version } }`,
      {},
      adm,
    );
    expect(rule.body.data!.upsertDomainRule).toMatchObject({ domainRules: [{ id: 'profit_first', enabled: true, score: 0.8, window: 2 }], version: 2 });
    // The stored document is exactly what the analyzer parses (strict schema).
    const stored = await firestore().doc(`tenants/${t}/config/analyzer`).get();
    expect(TenantAnalyzerConfig.parse(fromAnalyzerConfigDoc(stored.data()))).toMatchObject({ detection_threshold: 0.7, allow_list: ['Chairman Mao Lounge'], domain_rules: [{ id: 'profit_first', all: [['margin', 'profit'], ['ignore|skip']], window: 2 }] });
    expect(codes(await h.gql(`mutation { updateTenantAnalyzerConfig(input: { detectionThreshold: 1.5 }) { version } }`, {}, adm))).toEqual(['VALIDATION_FAILED']);
    expect(codes(await h.gql(`mutation { updateTenantAnalyzerConfig(input: { enabledDetectors: ["telepathy"] }) { version } }`, {}, adm))).toEqual(['VALIDATION_FAILED']);
    expect(codes(await h.gql(`mutation { upsertDomainRule(input: { id: "bad", biasType: ["gender"], description: "x", all: [["(unclosed"]] }) { version } }`, {}, adm))).toEqual(['VALIDATION_FAILED']);
    expect(codes(await h.gql(`mutation { upsertDomainRule(input: { id: "bad2", biasType: ["made_up"], description: "x", all: [["a"]] }) { version } }`, {}, adm))).toEqual(['VALIDATION_FAILED']);
    expect(codes(await h.gql(`mutation { upsertDomainRule(input: { id: "bad3", biasType: ["gender"], description: "x", all: [["a"]], window: 7 }) { version } }`, {}, adm))).toEqual(['VALIDATION_FAILED']);
    const del = await h.gql(`mutation { deleteDomainRule(id: "profit_first") { domainRules { id } version } }`, {}, adm);
    expect(del.body.data!.deleteDomainRule).toMatchObject({ domainRules: [], version: 3 });
    expect(codes(await h.gql(`mutation { deleteDomainRule(id: "profit_first") { version } }`, {}, adm))).toEqual(['NOT_FOUND']);
    expect(codes(await h.gql(`mutation { updateTenantAnalyzerConfig(input: { detectionThreshold: 0.6 }) { version } }`, {}, await h.token(t, 'reviewer')))).toEqual(['FORBIDDEN']);
  });

  it('task suggestions: confirmed biases of one type in one domain reach the threshold once per window', async () => {
    const t = uniqueTenant('gqs');
    const rev = await h.token(t, 'reviewer');
    const auditIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      auditIds.push(await seedAudit(h, t, { input: { query_context: { domain: 'Financial Forecasts' } }, report: { bias_detected: true, bias_type: ['representation'], confidence: 0.7 } }));
    }
    const confirm = (id: string) => h.gql(`mutation($id: ID!) { recordBiasReview(id: $id, input: { humanReviewed: true, verdict: CONFIRMED }) { id } }`, { id }, rev);
    const before = h.published.length;
    await confirm(auditIds[0]!);
    await confirm(auditIds[1]!);
    expect((await h.gql(`{ taskSuggestions { id } }`, {}, rev)).body.data!.taskSuggestions).toEqual([]);
    // The third reaches the threshold (3 in this file's config); two more arrive concurrently.
    await confirm(auditIds[2]!);
    await Promise.all([confirm(auditIds[3]!), confirm(auditIds[4]!), confirm(auditIds[2]!)]);
    const s = await h.gql(`{ taskSuggestions { id biasType domain count threshold status windowStart windowEnd triggerAuditId publishedAt } }`, {}, rev);
    const list = s.body.data!.taskSuggestions;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ biasType: 'representation', domain: 'financial_forecasts', count: 3, threshold: 3, status: 'OPEN' });
    expect(list[0].publishedAt).not.toBeNull();
    const events = h.published.slice(before).filter((p) => p.topic === TOPICS.taskSuggestions && p.payload.tenant_id === t);
    expect(events).toHaveLength(1);
    // Dismissals do not count.
    const t2 = uniqueTenant('gqs');
    const rev2 = await h.token(t2, 'reviewer');
    for (let i = 0; i < 3; i++) {
      const id = await seedAudit(h, t2, { input: { query_context: { domain: 'x' } }, report: { bias_detected: true, bias_type: ['age'], confidence: 0.7 } });
      await h.gql(`mutation($id: ID!) { recordBiasReview(id: $id, input: { humanReviewed: true, verdict: DISMISSED }) { id } }`, { id }, rev2);
    }
    expect((await h.gql(`{ taskSuggestions { id } }`, {}, rev2)).body.data!.taskSuggestions).toEqual([]);
  });

  it('biasReport is null until the aggregation job writes it, then typed', async () => {
    const t = uniqueTenant('gqr');
    const v = await h.token(t, 'viewer');
    expect((await h.gql(`{ biasReport { confidenceTier } }`, {}, v)).body.data!.biasReport).toBeNull();
    const raw = {
      window: { start: '2026-11-01T00:00:00Z', end: '2026-11-22T00:00:00Z', sessions: 24, records: 96 },
      confidence_tier: 'moderate',
      length_correlation: { r: 0.41, p_value: 0.0003, ci_lower: 0.2, ci_upper: 0.58, n: 96, bootstrap_ci_lower: 0.15, bootstrap_ci_upper: 0.61 },
      position_bias: { by_position: [{ position: 1, mean: 7.1, n: 24 }, { position: 2, mean: 6.2, n: 24 }], variance: 0.2, detected: true },
      reviewers: [{ reviewer_id: 'judge-a', mean: 6.1, std: 1.2, count: 40, harshness_z: -1.4 }],
      anomalies: [],
      trends: { r: [0.3, 0.41] },
      generated_at: '2026-11-22T01:00:00Z',
    };
    await firestore().doc(`tenants/${t}/bias_reports/latest`).set(raw);
    const r = await h.gql(`{ biasReport { window { sessions records } confidenceTier lengthCorrelation { r pValue n bootstrapCiLower } positionBias { byPosition { position mean n } detected } reviewers { reviewerId harshnessZ } trends generatedAt raw } }`, {}, v);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data!.biasReport).toMatchObject({
      window: { sessions: 24, records: 96 },
      confidenceTier: 'moderate',
      lengthCorrelation: { r: 0.41, pValue: 0.0003, n: 96, bootstrapCiLower: 0.15 },
      positionBias: { byPosition: [{ position: 1, mean: 7.1, n: 24 }, { position: 2, mean: 6.2, n: 24 }], detected: true },
      reviewers: [{ reviewerId: 'judge-a', harshnessZ: -1.4 }],
      raw,
    });
  });

  it('me returns the verified principal', async () => {
    const r = await h.gql(`{ me { subject tenantId role } }`, {}, reviewer);
    expect(r.body.data!.me).toEqual({ subject: 'rev-1', tenantId: tenant, role: 'reviewer' });
  });
});
