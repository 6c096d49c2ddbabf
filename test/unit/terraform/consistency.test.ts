import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_TTL_FIELDS } from '../../../shared/adapters/firestore/retention-indexes';
import { FUNCTIONS, SCHEDULES, TOPICS, deadLetterTopic } from '../../../shared/topology';
import { GENERATED_TOPOLOGY, codeIndexes, generateTopology } from '../../../scripts/terraform-topology';
import { COMPOSITION, ENVIRONMENTS, checkTerraform, loadTerraform, unformatted, type CodeNeeds, type TfModel } from './checker';

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
/** Problems in a stable order, for lists that span several directories. */
const sorted = (problems: string[]) => [...problems].sort();
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

  it('an environment that stops calling the composition module', () => {
    expect(sorted(without((m) => delete m['environments/prod']!.module.bias_monitor))).toEqual(sorted([
      'environments/prod does not call modules/bias_monitor',
      'environments/prod: module.bias_monitor is not a module call here',
      'environments/prod: variable project_id needs a validation block or to be passed unchanged to a validated module variable',
      'environments/prod: variable region needs a validation block or to be passed unchanged to a validated module variable',
      'environments/prod: variable auth_jwks_url needs a validation block or to be passed unchanged to a validated module variable',
      'environments/prod: variable auth_issuer needs a validation block or to be passed unchanged to a validated module variable',
    ]));
  });

  it('a composition module that stops instantiating a concern module', () => {
    expect(sorted(without((m) => delete m[COMPOSITION]!.module.scheduler))).toEqual(sorted([
      'modules/bias_monitor does not instantiate modules/scheduler',
      'environments/dev moves module.scheduler to module.bias_monitor.module.scheduler, which modules/bias_monitor does not declare',
      'environments/prod moves module.scheduler to module.bias_monitor.module.scheduler, which modules/bias_monitor does not declare',
      'modules/bias_monitor: module.scheduler is not a module call here',
    ]));
  });

  it('an environment that wires a concern module or a resource itself', () => {
    const problems = without((m) => {
      m['environments/dev']!.module.pubsub = m[COMPOSITION]!.module.pubsub!;
      m['environments/dev']!.resource.google_project_service = m[COMPOSITION]!.resource.google_project_service!;
    });
    expect(sorted(problems)).toEqual(sorted([
      'environments/dev instantiates module pubsub itself instead of through modules/bias_monitor',
      'environments/dev declares google_project_service.service; resources belong in modules/bias_monitor',
      'environments/dev: module pubsub calls ../pubsub, which holds no Terraform files',
      'environments/dev: module.topology is not a module call here',
    ]));
  });

  it('a missing moved block, which would make Terraform destroy and recreate a module', () => {
    expect(without((m) => (m['environments/prod']!.moved = m['environments/prod']!.moved.filter((b) => !String(b.from).includes('module.functions'))))).toEqual([
      'environments/prod has no moved block from module.functions to module.bias_monitor.module.functions',
    ]);
  });

  it('a module call that does not match the called module (what terraform validate would report)', () => {
    const problems = without((m) => {
      const call = m['environments/dev']!.module.bias_monitor![0]!;
      call.log_levl = call.log_level;
      delete call.log_level;
      call.region = '${var.regoin}';
      m[COMPOSITION]!.module.functions![0]!.service_accounts = '${module.iam.service_accounts}';
    });
    expect(sorted(problems)).toEqual(sorted([
      'environments/dev: module bias_monitor passes log_levl, which modules/bias_monitor does not declare',
      'environments/dev: module bias_monitor does not pass log_level, which modules/bias_monitor requires',
      'environments/dev: var.regoin is not declared',
      'environments/dev: variable region needs a validation block or to be passed unchanged to a validated module variable',
      'modules/bias_monitor: module.iam.service_accounts is not an output of ../iam',
    ]));
  });

  it('a variable without validation, in a module and in an environment', () => {
    expect(without((m) => delete m['modules/pubsub']!.variable.topics![0]!.validation)).toEqual(['modules/pubsub: variable topics needs a validation block']);
    expect(sorted(without((m) => delete m[COMPOSITION]!.variable.auth_issuer![0]!.validation))).toEqual(sorted([
      'modules/bias_monitor: variable auth_issuer needs a validation block',
      'environments/dev: variable auth_issuer needs a validation block or to be passed unchanged to a validated module variable',
      'environments/prod: variable auth_issuer needs a validation block or to be passed unchanged to a validated module variable',
    ]));
  });

  it('an unformatted file is reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tf-fmt-'));
    try {
      writeFileSync(join(dir, 'ok.tf'), 'resource "a" "b" {\n  x = 1\n}\n');
      writeFileSync(join(dir, 'bad.tf'), 'resource "a" "b" {\nx=1\n}\n');
      expect(await unformatted([join(dir, 'ok.tf'), join(dir, 'bad.tf')])).toEqual([join(dir, 'bad.tf')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

});

// Cross-checks with the real terraform CLI when it is installed. Without the google provider (not available
// offline) init, validate and plan cannot run on the real configuration; fmt and get need no provider, and moved
// blocks can be rehearsed on a stand-in configuration built from terraform_data, which is built into Terraform.
const TF_ENV = { ...process.env, TF_CLI_CONFIG_FILE: '', CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', TF_INPUT: '0' };
const terraform = (args: string[], cwd = ROOT) => spawnSync('terraform', args, { cwd, env: TF_ENV, encoding: 'utf8', timeout: 120_000 });
const cliVersion = terraform(['version']);
const cli = cliVersion.error ? undefined : cliVersion.stdout.split('\n')[0];

describe(`terraform CLI cross-checks (${cli ?? 'terraform not on PATH'})`, () => {
  const notRun = (what: string) =>
    console.warn(`terraform CLI not on PATH: ${what} was NOT run; the @cdktf/hcl-tools format check and the checker above still ran.`);

  it('terraform fmt -check -recursive terraform agrees that every file is canonical', (ctx) => {
    if (!cli) return (notRun('terraform fmt -check -recursive terraform'), ctx.skip());
    const r = terraform(['fmt', '-check', '-recursive', '-no-color', 'terraform']);
    expect(r.stdout + r.stderr, 'files terraform fmt would rewrite').toBe('');
    expect(r.status).toBe(0);
  });

  it('terraform fmt -check fails on an unformatted file', (ctx) => {
    if (!cli) return (notRun('terraform fmt -check'), ctx.skip());
    const dir = mkdtempSync(join(tmpdir(), 'tf-fmt-'));
    try {
      writeFileSync(join(dir, 'bad.tf'), 'resource "a" "b" {\nx=1\n}\n');
      const r = terraform(['fmt', '-check', '-recursive', '-no-color', dir]);
      expect(r.status).not.toBe(0);
      expect(r.stdout).toContain('bad.tf');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // terraform get installs the module tree without providers: it parses every block of every module an
  // environment reaches (unknown arguments, missing required ones, bad moved blocks), short of type checking.
  const scratch = mkdtempSync(join(tmpdir(), 'tf-cli-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  for (const env of ENVIRONMENTS) {
    it(`terraform get loads the whole module tree of ${env}`, (ctx) => {
      if (!cli) return (notRun(`terraform get in ${env}`), ctx.skip());
      const tree = mkdtempSync(join(scratch, 'tree-'));
      cpSync(join(ROOT, 'terraform'), tree, { recursive: true, filter: (src) => !/(^|\/)(\.terraform|terraform\.tfstate[^/]*)$/.test(src) });
      const r = terraform(['get', '-no-color'], join(tree, env));
      expect(r.status, r.stderr).toBe(0);
      for (const name of Object.keys(model[COMPOSITION]!.module)) expect(r.stdout).toContain(`- bias_monitor.${name} in`);
    }, 120_000);
  }

  // State from before modules/bias_monitor holds google_project_service.service and module.<concern> at the root.
  // Stand-in: the same addresses with terraform_data inside, applied; then the composition layout with the
  // environment's own moved.tf. Terraform must plan moves only: nothing to add or destroy.
  const stub = 'resource "terraform_data" "r" {\n  input = "stand-in"\n}\n';
  const service = 'resource "terraform_data" "service" {\n  for_each = toset(["pubsub.googleapis.com"])\n  input    = each.value\n}\n';
  const calls = (names: string[], source: string) => names.map((n) => `module "${n}" {\n  source = "${source}"\n}\n`).join('\n');
  const write = (file: string, text: string) => (mkdirSync(dirname(file), { recursive: true }), writeFileSync(file, text));
  const rehearse = (env: string, movedTf: string) => {
    const concerns = Object.keys(model[COMPOSITION]!.module);
    const dir = mkdtempSync(join(scratch, 'run-'));
    write(join(dir, 'stub', 'main.tf'), stub);
    write(join(dir, 'before', 'main.tf'), service + calls(concerns, '../stub'));
    for (const args of [['init', '-no-color'], ['apply', '-auto-approve', '-no-color']]) {
      const r = terraform(args, join(dir, 'before'));
      expect(r.status, r.stderr).toBe(0);
    }
    write(join(dir, 'after', 'main.tf'), 'module "bias_monitor" {\n  source = "../composition"\n}\n');
    write(join(dir, 'after', 'moved.tf'), movedTf.replaceAll('google_project_service.', 'terraform_data.'));
    write(join(dir, 'composition', 'main.tf'), service + calls(concerns, '../stub'));
    cpSync(join(dir, 'before', 'terraform.tfstate'), join(dir, 'after', 'terraform.tfstate'));
    expect(terraform(['init', '-no-color'], join(dir, 'after')).status).toBe(0);
    const plan = terraform(['plan', '-no-color'], join(dir, 'after'));
    expect(plan.status, plan.stderr).toBe(0);
    return { concerns, plan: plan.stdout };
  };

  for (const env of ENVIRONMENTS) {
    it(`${env}/moved.tf moves every former root address into module.bias_monitor without destroying anything`, (ctx) => {
      if (!cli) return (notRun(`the ${env} moved-block rehearsal`), ctx.skip());
      const { concerns, plan } = rehearse(env, readFileSync(join(ROOT, 'terraform', env, 'moved.tf'), 'utf8'));
      expect(plan).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
      expect(plan.match(/has moved to module\.bias_monitor\./g)).toHaveLength(concerns.length + 1);
    }, 120_000);
  }

  it('without one moved block the rehearsal plans a destroy and a re-create', (ctx) => {
    if (!cli) return (notRun('the moved-block rehearsal'), ctx.skip());
    const movedTf = readFileSync(join(ROOT, 'terraform', ENVIRONMENTS[0]!, 'moved.tf'), 'utf8');
    const { plan } = rehearse(ENVIRONMENTS[0]!, movedTf.replace(/moved \{\n  from = module\.functions\n[^}]*\}\n/, ''));
    expect(plan).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
  }, 120_000);
});
