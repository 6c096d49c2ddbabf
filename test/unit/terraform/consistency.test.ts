import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_TTL_FIELDS } from '../../../shared/adapters/firestore/retention-indexes';
import { FUNCTIONS, SCHEDULES, TOPICS, deadLetterTopic } from '../../../shared/topology';
import { GENERATED_TOPOLOGY, codeIndexes, generateTopology } from '../../../scripts/terraform-topology';
import { checkTerraform, loadTerraform, unformatted, type CodeNeeds, type TfModel } from './checker';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const code: CodeNeeds = {
  functions: FUNCTIONS,
  topics: Object.values(TOPICS),
  deadLetterTopics: FUNCTIONS.flatMap((f) => (f.trigger ? [deadLetterTopic(f.trigger)] : [])),
  schedules: SCHEDULES,
  // The config fields that are secrets (shared/config.ts).
  secretFields: ['AUTH_HS256_SECRET', 'HMAC_SECRET'],
  indexes: codeIndexes(ROOT),
  ttlFields: RETENTION_TTL_FIELDS,
};

let model: TfModel;
let files: string[];
beforeAll(async () => {
  ({ model, files } = await loadTerraform(join(ROOT, 'terraform')));
}, 120_000);

const without = (mutate: (m: TfModel) => void) => {
  const copy = structuredClone(model);
  mutate(copy);
  return checkTerraform(copy, code);
};
const topology = (m: TfModel) => m['modules/topology']!.locals as Record<string, Record<string, unknown>>;

describe('terraform matches the code', () => {
  it('the generated topology is up to date with shared/topology.ts and firestore.indexes.json', () => {
    expect(readFileSync(GENERATED_TOPOLOGY, 'utf8'), 'run: npx tsx scripts/terraform-topology.ts').toBe(generateTopology(ROOT));
  });

  it('every function, topic, dead-letter topic, schedule, secret, index and TTL policy has a resource', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(checkTerraform(model, code)).toEqual([]);
  });

  it('every .tf file is canonically formatted (terraform fmt -check)', async () => {
    expect(await unformatted(files)).toEqual([]);
  }, 120_000);
});

describe('the checker reports exactly what is missing', () => {
  it('a removed schedule', () => {
    expect(without((m) => delete topology(m).schedules!.retention)).toEqual(['schedule retention (retention-ticks, 15 2 * * *) has no Terraform resource']);
  });

  it('a removed Cloud Scheduler resource leaves every schedule uncovered', () => {
    expect(without((m) => delete m['modules/scheduler']!.resource.google_cloud_scheduler_job)).toEqual(
      SCHEDULES.map((s) => `schedule ${s.job} (${s.topic}, ${s.cron}) has no Terraform resource`),
    );
  });

  it('a removed function', () => {
    expect(without((m) => delete topology(m).functions!.retention)).toEqual(['function retention (entry point retentionJob) has no Terraform resource']);
  });

  it('a removed secret', () => {
    const problems = without((m) => delete (m['modules/secrets']!.locals.secrets as Record<string, string>).HMAC_SECRET);
    expect(problems[0]).toBe('secret HMAC_SECRET has no Secret Manager resource');
    expect(problems.slice(1).every((p) => p === 'secret HMAC_SECRET is mounted by a function but has no Secret Manager resource')).toBe(true);
  });

  it('a removed dead-letter topic and a removed topic', () => {
    expect(without((m) => (topology(m).dead_letter_topics = (topology(m).dead_letter_topics as unknown as string[]).filter((t) => t !== 'retention-ticks-dlq') as never))).toEqual([
      'dead-letter topic retention-ticks-dlq has no Terraform resource',
    ]);
    expect(without((m) => (topology(m).topics = (topology(m).topics as unknown as string[]).filter((t) => t !== 'bias-alerts') as never))).toEqual([
      'topic bias-alerts has no Terraform resource',
    ]);
  });

  it('a removed Firestore index and TTL policy', () => {
    const key = Object.keys(topology(model).firestore_indexes!).find((k) => k.includes('anonymized_at'))!;
    expect(without((m) => delete topology(m).firestore_indexes![key])).toEqual(['Firestore index audits(anonymized_at, created_at) has no Terraform resource']);
    expect(without((m) => delete m['modules/firestore']!.resource.google_firestore_field)).toEqual(
      RETENTION_TTL_FIELDS.map((t) => `Firestore TTL policy ${t.collectionGroup}.${t.fieldPath} has no Terraform resource`),
    );
  });

  it('an environment that stops deploying a module, and a variable without validation', () => {
    expect(without((m) => delete m['environments/prod']!.module.scheduler)).toEqual(['environments/prod does not instantiate modules/scheduler']);
    expect(without((m) => delete m['modules/pubsub']!.variable.topics![0]!.validation)).toEqual(['modules/pubsub: variable topics needs a validation block']);
  });

  it('an unformatted file is reported', async () => {
    const { format } = await import('@cdktf/hcl-tools');
    expect(await format('resource "a" "b" {\nx=1\n}\n')).not.toBe('resource "a" "b" {\nx=1\n}\n');
  });
});
