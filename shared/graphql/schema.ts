// GraphQL SDL: the FR-BIAS-4.2.1 contract, extended with what a reviewing client needs.
export const typeDefs = /* GraphQL */ `
  scalar JSON
  scalar DateTime

  enum Role { viewer reviewer admin service }
  enum BiasStatus { PENDING ANALYZED BIAS_ANALYSIS_FAILED }
  enum ReviewVerdict { CONFIRMED DISMISSED }
  enum AuditSortField { LOG_TIMESTAMP CONFIDENCE SEVERITY }
  enum SortDirection { ASC DESC }

  type Principal { subject: String! tenantId: ID! role: Role! }

  "One event of the audit's append-only, SHA-256 hash-chained history."
  type AuditEvent {
    seq: Int!
    type: String!
    at: DateTime!
    actor: String!
    key: String
    payload: JSON!
    stateDigest: String!
    prevHash: String!
    hash: String!
  }

  type ChainProblem { seq: Int eventId: String reason: String! }

  type LlmInteractionAudit {
    id: ID!
    tenantId: ID!
    userId: ID
    userEmail: String
    userRole: String
    "The stored query context; JSON objects are returned as a JSON string (see queryContextJson)."
    queryContext: String
    queryContextJson: JSON
    originalQuery: String!
    llmProvider: String!
    llmModel: String!
    llmModelVersion: String
    operation: String
    sanitizedPrompt: String
    llmResponse: JSON
    promptTokens: Int
    responseTokens: Int
    estimatedCostUsd: Float
    redactionSummary: JSON
    sensitivityScore: String
    containedPii: Boolean
    containedProprietary: Boolean
    containedCustomerData: Boolean
    status: String!
    errorMessage: String
    logTimestamp: DateTime!
    # Bias (machine verdict)
    biasDetected: Boolean!
    biasType: [String!]
    biasScore: JSON
    biasConfidenceScore: Float
    "Highest taxonomy severity_level (1-5) among biasType; null when none is known."
    biasSeverity: Int
    mitigationAction: JSON
    biasReportSummary: JSON
    biasStatus: BiasStatus!
    analyzedAt: DateTime
    analysisError: String
    # Human review (never replaces the machine verdict)
    humanReviewed: Boolean!
    humanBiasTag: JSON
    reviewNotes: String
    reviewVerdict: ReviewVerdict
    reviewedBy: String
    reviewedAt: DateTime
    # Traceability
    traceId: String!
    decisionId: ID
    promptHash: String!
    outputHash: String!
    createdAt: DateTime!
    events: [AuditEvent!]!
    chainValid: Boolean!
    chainProblems: [ChainProblem!]!
  }

  input LlmInteractionAuditFilterInput {
    "Optional; must equal the tenant of the token (FORBIDDEN otherwise). Never widens the scope."
    tenantId: ID
    userId: ID
    llmProvider: String
    llmModel: String
    sensitivityScore: String
    biasDetected: Boolean
    humanReviewed: Boolean
    logTimestampStart: DateTime
    logTimestampEnd: DateTime
    biasType: String
    biasStatus: BiasStatus
    decisionId: ID
    reviewVerdict: ReviewVerdict
    minConfidence: Float
  }

  input PaginationInput { limit: Int offset: Int }
  input AuditSortInput { field: AuditSortField! = LOG_TIMESTAMP direction: SortDirection! = DESC }

  type LlmInteractionAuditEdge { cursor: String! node: LlmInteractionAudit! }
  type PageInfo { hasNextPage: Boolean! endCursor: String }
  type LlmInteractionAuditConnection { edges: [LlmInteractionAuditEdge!]! pageInfo: PageInfo! }

  input UpdateLlmInteractionAuditBiasInput {
    biasDetected: Boolean
    biasType: JSON
    biasScore: JSON
    biasConfidenceScore: Float
    mitigationAction: JSON
    biasReportSummary: JSON
    "FR-BIAS-4.4.6 trace id; must match the audit's when given."
    traceId: String
    "Makes a retried mutation apply once."
    idempotencyKey: String
  }

  input RecordBiasReviewInput {
    humanReviewed: Boolean!
    "A taxonomy key or a list of taxonomy keys."
    humanBiasTag: JSON
    reviewNotes: String
    verdict: ReviewVerdict
    idempotencyKey: String
  }

  type EvidenceSpan { start: Int! end: Int! text: String! }
  type ExplainFinding {
    detector: String!
    detectorVersion: String!
    biasType: [String!]!
    score: Float!
    explanation: String!
    suggestion: String
    metric: String
    spans: [EvidenceSpan!]!
  }
  type DetectorVersion { detector: String! version: String! }
  type ReviewState {
    humanReviewed: Boolean!
    verdict: ReviewVerdict
    humanBiasTag: JSON
    reviewNotes: String
    reviewedBy: String
    reviewedAt: DateTime
  }
  type MachineVerdict {
    biasDetected: Boolean!
    biasType: [String!]!
    biasScore: JSON
    confidence: Float
    biasStatus: BiasStatus!
    analyzedAt: DateTime
  }
  "The /explain bundle (ai-audit-guardrails): how the output came about and what was found and done about it."
  type ExplainBundle {
    auditId: ID!
    traceId: String!
    promptTemplate: String
    "Prompt variables as stored: PII was masked at ingest."
    promptVariables: JSON
    promptHash: String!
    outputHash: String!
    llmProvider: String!
    llmModel: String!
    llmModelVersion: String
    machineVerdict: MachineVerdict!
    "Null with a BIAS_ANALYSIS_FAILED error when the analysis failed (it is retried)."
    findings: [ExplainFinding!]
    detectorVersions: [DetectorVersion!]!
    mitigation: JSON
    review: ReviewState!
    reviewTrail: [AuditEvent!]!
    events: [AuditEvent!]!
    chainValid: Boolean!
    chainProblems: [ChainProblem!]!
  }

  type BiasEvent {
    auditId: ID!
    seq: Int!
    type: String!
    at: DateTime!
    actor: String!
    biasDetected: Boolean
    biasType: [String!]
    verdict: ReviewVerdict
  }
  "FR-BIAS-4.5: a decision's LLM interactions in time order and where bias entered its reasoning chain."
  type Decision {
    id: ID!
    interactions: [LlmInteractionAudit!]!
    biasEvents: [BiasEvent!]!
    biasedInteractionCount: Int!
    firstBiasedAuditId: ID
  }

  type BiasTaxonomyEntry {
    biasKey: String!
    description: String!
    severityLevel: Int!
    kind: String!
    scope: String!
    updatedAt: DateTime
    updatedBy: String
  }
  input BiasTaxonomyEntryInput { biasKey: String! description: String! severityLevel: Int! kind: String }

  type DomainRule {
    id: String!
    biasType: [String!]!
    description: String!
    all: [[String!]!]!
    unless: [String!]!
    "Consecutive sentences the groups may spread over (1-3)."
    window: Int!
    score: Float!
    mitigation: String
    enabled: Boolean!
  }
  input DomainRuleInput {
    id: String!
    biasType: [String!]!
    description: String!
    all: [[String!]!]!
    unless: [String!]
    window: Int
    score: Float
    mitigation: String
    enabled: Boolean
  }
  type TenantAnalyzerConfig {
    detectionThreshold: Float!
    detectorThresholds: JSON!
    enabledDetectors: [String!]!
    allowList: [String!]!
    domainRules: [DomainRule!]
    extendDefaultRules: Boolean!
    reviewConfidenceFloor: Float!
    "Send responses in a language the detectors do not cover to human review."
    reviewUnsupportedLanguage: Boolean!
    council: JSON!
    version: Int!
    updatedAt: DateTime
    updatedBy: String
    raw: JSON!
  }
  input TenantAnalyzerConfigInput {
    detectionThreshold: Float
    "Per-detector minimum scores, e.g. {\\"toxicity\\": 0.7}."
    detectorThresholds: JSON
    enabledDetectors: [String!]
    allowList: [String!]
    extendDefaultRules: Boolean
    reviewConfidenceFloor: Float
    reviewUnsupportedLanguage: Boolean
    council: JSON
  }

  type TaskSuggestion {
    id: ID!
    biasType: String!
    domain: String!
    windowStart: DateTime!
    windowEnd: DateTime!
    count: Int!
    threshold: Int!
    status: String!
    createdAt: DateTime!
    triggerAuditId: ID!
    publishedAt: DateTime
  }

  type ReportWindow { start: DateTime end: DateTime sessions: Int records: Int }
  type LengthCorrelation { r: Float pValue: Float ciLower: Float ciUpper: Float n: Int bootstrapCiLower: Float bootstrapCiUpper: Float }
  type PositionMean { position: Int mean: Float n: Int }
  type PositionBias { byPosition: [PositionMean!]! variance: Float detected: Boolean }
  type ReviewerCalibration { reviewerId: String! mean: Float std: Float count: Int harshnessZ: Float }
  "The latest pooled council bias report of the tenant (written by the aggregation job)."
  type BiasAggregateReport {
    window: ReportWindow
    confidenceTier: String
    lengthCorrelation: LengthCorrelation
    positionBias: PositionBias
    reviewers: [ReviewerCalibration!]!
    anomalies: JSON
    trends: JSON
    generatedAt: DateTime
    raw: JSON!
  }

  type Query {
    me: Principal!
    llmInteractionAudit(id: ID!): LlmInteractionAudit
    llmInteractionAudits(filter: LlmInteractionAuditFilterInput, pagination: PaginationInput, sort: AuditSortInput): [LlmInteractionAudit!]
    llmInteractionAuditConnection(filter: LlmInteractionAuditFilterInput, first: Int = 25, after: String, sort: AuditSortInput): LlmInteractionAuditConnection!
    explain(auditId: ID!): ExplainBundle
    decision(id: ID!): Decision
    biasTaxonomy: [BiasTaxonomyEntry!]!
    tenantAnalyzerConfig: TenantAnalyzerConfig!
    taskSuggestions(limit: Int = 50): [TaskSuggestion!]!
    biasReport: BiasAggregateReport
  }

  type Mutation {
    "Service role (the analyzer path): goes through the same use case as the analyzer worker."
    updateLlmInteractionAuditBias(id: ID!, input: UpdateLlmInteractionAuditBiasInput!): LlmInteractionAudit!
    "Reviewer role."
    recordBiasReview(id: ID!, input: RecordBiasReviewInput!): LlmInteractionAudit!
    "Admin role: tenant taxonomy additions (global entries are read-only)."
    upsertBiasTaxonomyEntry(input: BiasTaxonomyEntryInput!): BiasTaxonomyEntry!
    "Admin role: thresholds, enabled detectors, allow-list (fields left out keep their value)."
    updateTenantAnalyzerConfig(input: TenantAnalyzerConfigInput!): TenantAnalyzerConfig!
    upsertDomainRule(input: DomainRuleInput!): TenantAnalyzerConfig!
    deleteDomainRule(id: String!): TenantAnalyzerConfig!
  }
`;
