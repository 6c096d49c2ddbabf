// Realistic interaction payloads for e2e, reliability and benchmark runs (deterministic per index).
import { createHash } from 'node:crypto';

const RESPONSES = [
  'The chairman should hire a young, energetic salesman who fits our culture.',
  'Based on the credit history and income provided, the applicant qualifies for the standard rate. Contact jane.doe@example.com for documents.',
  'Supplier B offers the lowest unit cost; delivery reliability is comparable across all three suppliers.',
  'Our clinic offers wheelchair-accessible entrances and sign-language interpreters on request.',
  'Women are naturally better suited to nurturing roles, so assign her to the support team.',
  'Forecast: demand grows 4% next quarter, driven by the northern region; confidence interval 2–6%.',
  'The candidate’s résumé shows ten years of backend experience and strong references.',
  'Call the policyholder at +1 (415) 555-0132 to confirm the claim; card 4111 1111 1111 1111 was charged.',
];

export function interactionPayload(i: number, extra: Record<string, unknown> = {}) {
  const response = `${RESPONSES[i % RESPONSES.length]} (case ${i})`;
  return {
    interaction_id: `int-${i}`,
    user_id: `user-${i % 17}`,
    user_email: `user${i % 17}@example.com`,
    user_role: 'analyst',
    query_context: { domain: ['hiring', 'lending', 'procurement', 'healthcare'][i % 4], channel: 'api' },
    original_query: `Question ${i}: please advise on the case of applicant ${i}.`,
    sanitized_prompt: `System: be fair.\nUser: Question ${i}`,
    llm_provider: 'openai',
    llm_model: i % 3 === 0 ? 'gpt-4o' : 'gpt-4o-mini',
    llm_model_version: '2024-08-06',
    llm_response: response,
    prompt_tokens: 100 + (i % 50),
    response_tokens: 200 + (i % 70),
    estimated_cost_usd: 0.001 * (1 + (i % 5)),
    latency_ms: 400 + (i % 300),
    sensitivity_score: 'internal',
    contained_customer_data: i % 2 === 0,
    ...(i % 10 === 0 ? { decision_id: `decision-${Math.floor(i / 10)}` } : {}),
    ...extra,
  };
}

export const traceIdFor = (tenant: string, i: number) => createHash('sha256').update(`${tenant}:${i}`).digest('hex').slice(0, 32);

/** Invalid payloads, each with the field a 400 must name. */
export function invalidPayloads(): { field: string; body: unknown }[] {
  const base = interactionPayload(99_999);
  const without = (k: string) => Object.fromEntries(Object.entries(base).filter(([key]) => key !== k));
  return [
    { field: 'llm_model', body: without('llm_model') },
    { field: 'llm_provider', body: without('llm_provider') },
    { field: 'llm_response', body: without('llm_response') },
    { field: 'original_query', body: without('original_query') },
    { field: 'llm_response', body: { ...base, llm_response: 42 } },
    { field: 'prompt_tokens', body: { ...base, prompt_tokens: -1 } },
    { field: 'prompt_tokens', body: { ...base, prompt_tokens: 1.5 } },
    { field: 'response_tokens', body: { ...base, response_tokens: 'many' } },
    { field: 'estimated_cost_usd', body: { ...base, estimated_cost_usd: -0.5 } },
    { field: 'latency_ms', body: { ...base, latency_ms: null } },
    { field: 'user_email', body: { ...base, user_email: 'not-an-email' } },
    { field: 'interaction_id', body: { ...base, interaction_id: 'bad/id' } },
    { field: 'interaction_id', body: { ...base, interaction_id: '' } },
    { field: 'log_timestamp', body: { ...base, log_timestamp: 'yesterday' } },
    { field: 'status', body: { ...base, status: 'exploded' } },
    { field: 'sensitivity_score', body: { ...base, sensitivity_score: 'top-secret' } },
    { field: 'contained_proprietary', body: { ...base, contained_proprietary: 'yes' } },
    { field: 'decision_id', body: { ...base, decision_id: 'has spaces' } },
    { field: 'prompt_variables', body: { ...base, prompt_variables: ['not', 'an', 'object'] } },
    { field: 'unexpected_field', body: { ...base, unexpected_field: true } },
  ];
}
