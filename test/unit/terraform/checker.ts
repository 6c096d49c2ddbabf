// Loads every Terraform module of terraform/ (hcl2json for .tf, JSON for the generated .tf.json) and checks that
// everything the code uses has a resource: functions, topics and dead-letter topics, schedules, secrets, Firestore
// indexes and TTL policies. It also checks the layout (each environment calls modules/bias_monitor, which
// instantiates every concern module) and, since `terraform validate` needs the providers and cannot run offline,
// the part of it that needs none: module calls pass exactly the variables the called module declares, and
// references to var.*, module.* and module outputs resolve. Pure over the loaded model, so tests can delete a
// resource and see it reported.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { format } from '@cdktf/hcl-tools';
import type { FirestoreIndexSpec } from '../../../shared/adapters/firestore/retention-indexes';
import type { FunctionTarget, Schedule } from '../../../shared/topology';

type Block = Record<string, unknown>;
export interface TfModule {
  resource: Record<string, Record<string, Block[]>>;
  data: Record<string, Record<string, Block[]>>;
  module: Record<string, Block[]>;
  variable: Record<string, Block[]>;
  output: Record<string, Block[]>;
  moved: Block[];
  locals: Record<string, unknown>;
}
export type TfModel = Record<string, TfModule>;

export interface CodeNeeds {
  functions: readonly FunctionTarget[];
  topics: readonly string[];
  deadLetterTopics: readonly string[];
  schedules: readonly Schedule[];
  secretFields: readonly string[];
  indexes: readonly FirestoreIndexSpec[];
  ttlFields: readonly { collectionGroup: string; fieldPath: string }[];
}

/** The concern modules; modules/bias_monitor instantiates each once, and each environment calls it once. */
const CONCERNS = ['topology', 'secrets', 'pubsub', 'iam', 'functions', 'scheduler', 'firestore', 'bigquery'];
export const COMPOSITION = 'modules/bias_monitor';
export const ENVIRONMENTS = ['environments/dev', 'environments/prod'];
/** Root addresses from when each environment instantiated the modules itself; each needs a moved block. */
const FORMER_ROOT_ADDRESSES = ['google_project_service.service', ...CONCERNS.map((c) => `module.${c}`)];
const META_ARGUMENTS = new Set(['source', 'version', 'providers', 'depends_on', 'count', 'for_each']);

function tfFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name.startsWith('.') ? [] : tfFiles(p);
    return name.endsWith('.tf') || name.endsWith('.tf.json') ? [p] : [];
  });
}

export async function loadTerraform(root: string): Promise<{ model: TfModel; files: string[] }> {
  const model: TfModel = {};
  const files = tfFiles(root);
  for (const file of files) {
    const dir = relative(root, join(file, '..'));
    const m = (model[dir] ??= { resource: {}, data: {}, module: {}, variable: {}, output: {}, moved: [], locals: {} });
    const text = readFileSync(file, 'utf8');
    const parsed = (file.endsWith('.tf.json') ? JSON.parse(text) : await parse(file, text)) as Record<string, unknown>;
    for (const kind of ['resource', 'data'] as const) {
      for (const [type, byName] of Object.entries((parsed[kind] ?? {}) as Record<string, Record<string, Block[]>>)) {
        Object.assign((m[kind][type] ??= {}), byName);
      }
    }
    Object.assign(m.module, parsed.module ?? {});
    Object.assign(m.variable, parsed.variable ?? {});
    Object.assign(m.output, parsed.output ?? {});
    m.moved.push(...((parsed.moved ?? []) as Block[]));
    const locals = parsed.locals;
    for (const l of Array.isArray(locals) ? locals : locals ? [locals] : []) Object.assign(m.locals, l);
  }
  return { model, files };
}

/** Files whose text differs from what `terraform fmt` (hcl-tools format) would write. */
export async function unformatted(files: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of files.filter((x) => x.endsWith('.tf'))) {
    const text = readFileSync(f, 'utf8');
    if ((await format(text)) !== text) out.push(f);
  }
  return out;
}

const mod = (model: TfModel, name: string) => model[`modules/${name}`];
const resource = (m: TfModule | undefined, type: string, name: string) => m?.resource[type]?.[name]?.[0];
const str = (v: unknown) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

export function checkTerraform(model: TfModel, code: CodeNeeds): string[] {
  const problems: string[] = [];
  const topo = mod(model, 'topology')?.locals ?? {};
  const fns = (topo.functions ?? {}) as Record<string, { entry_point?: string; source?: string; signature?: string; trigger?: string | null; dead_letter_topic?: string | null }>;
  const topics = new Set((topo.topics ?? []) as string[]);
  const dlqs = new Set((topo.dead_letter_topics ?? []) as string[]);
  const schedules = (topo.schedules ?? {}) as Record<string, { cron?: string; time_zone?: string; topic?: string }>;
  const indexes = (topo.firestore_indexes ?? {}) as Record<string, { collection: string; query_scope: string; fields: { field_path: string; order: string | null; array_config: string | null }[] }>;
  const ttl = (topo.firestore_ttl_fields ?? {}) as Record<string, { collection: string; field: string }>;

  // Resources that turn each topology entry into real infrastructure.
  const fnRes = resource(mod(model, 'functions'), 'google_cloudfunctions2_function', 'function');
  const fnOk = !!fnRes && str(fnRes.for_each).includes('var.functions') && str(fnRes.build_config).includes('each.value.entry_point');
  const pushRes = resource(mod(model, 'functions'), 'google_pubsub_subscription', 'push');
  const pushOk = !!pushRes && str(pushRes.dead_letter_policy).includes('dead_letter_topic') && !!pushRes.retry_policy;
  const topicOk = str(resource(mod(model, 'pubsub'), 'google_pubsub_topic', 'topic')?.for_each).includes('var.topics');
  const dlqOk = str(resource(mod(model, 'pubsub'), 'google_pubsub_topic', 'dead_letter')?.for_each).includes('var.dead_letter_topics');
  const schedOk = str(resource(mod(model, 'scheduler'), 'google_cloud_scheduler_job', 'job')?.for_each).includes('var.schedules');
  const secretRes = resource(mod(model, 'secrets'), 'google_secret_manager_secret', 'secret');
  const secretMap = (mod(model, 'secrets')?.locals.secrets ?? {}) as Record<string, string>;
  const indexOk = str(resource(mod(model, 'firestore'), 'google_firestore_index', 'index')?.for_each).includes('var.indexes');
  const ttlRes = resource(mod(model, 'firestore'), 'google_firestore_field', 'ttl');
  const ttlOk = !!ttlRes && str(ttlRes.for_each).includes('var.ttl_fields') && 'ttl_config' in ttlRes;
  const access = (mod(model, 'iam')?.locals.access ?? {}) as Record<string, { secrets?: string[] }>;

  for (const f of code.functions) {
    const t = fns[f.name];
    const consistent = t && t.entry_point === f.entryPoint && t.source === f.source && t.signature === f.signature && (t.trigger ?? undefined) === f.trigger;
    if (!consistent || !fnOk) problems.push(`function ${f.name} (entry point ${f.entryPoint}) has no Terraform resource`);
    else if (!access[f.name]) problems.push(`function ${f.name} has no least-privilege entry in modules/iam locals.access`);
    if (f.trigger && consistent && (!pushOk || t.dead_letter_topic !== `${f.trigger}-dlq`)) {
      problems.push(`consumer ${f.name} has no push subscription with retry policy and dead-letter topic`);
    }
  }
  for (const topic of code.topics) if (!topics.has(topic) || !topicOk) problems.push(`topic ${topic} has no Terraform resource`);
  for (const dlq of code.deadLetterTopics) if (!dlqs.has(dlq) || !dlqOk) problems.push(`dead-letter topic ${dlq} has no Terraform resource`);
  for (const s of code.schedules) {
    const t = schedules[s.job];
    if (!t || t.cron !== s.cron || t.time_zone !== s.timeZone || t.topic !== s.topic || !schedOk) {
      problems.push(`schedule ${s.job} (${s.topic}, ${s.cron}) has no Terraform resource`);
    }
  }
  for (const field of code.secretFields) {
    if (!secretRes || !str(secretRes.for_each).includes('local.secrets') || !secretMap[field]) problems.push(`secret ${field} has no Secret Manager resource`);
  }
  for (const fn of Object.values(access)) {
    for (const s of fn.secrets ?? []) if (!secretMap[s]) problems.push(`secret ${s} is mounted by a function but has no Secret Manager resource`);
  }
  for (const i of code.indexes) {
    const found = Object.values(indexes).some(
      (x) =>
        x.collection === i.collectionGroup &&
        x.query_scope === i.queryScope &&
        x.fields.length === i.fields.length &&
        x.fields.every((f, k) => f.field_path === i.fields[k]!.fieldPath && (f.order ?? undefined) === i.fields[k]!.order && (f.array_config ?? undefined) === i.fields[k]!.arrayConfig),
    );
    if (!found || !indexOk) problems.push(`Firestore index ${i.collectionGroup}(${i.fields.map((f) => f.fieldPath).join(', ')}) has no Terraform resource`);
  }
  for (const t of code.ttlFields) {
    const found = Object.values(ttl).some((x) => x.collection === t.collectionGroup && x.field === t.fieldPath);
    if (!found || !ttlOk) problems.push(`Firestore TTL policy ${t.collectionGroup}.${t.fieldPath} has no Terraform resource`);
  }

  problems.push(...checkLayout(model), ...checkModuleCalls(model));

  // The audit stream reaches BigQuery through a Pub/Sub BigQuery subscription, into a partitioned, clustered table.
  const bq = mod(model, 'bigquery');
  const sub = resource(bq, 'google_pubsub_subscription', 'audit_stream_bigquery');
  if (!sub || !sub.bigquery_config) problems.push('bias.audit.stream has no Pub/Sub -> BigQuery subscription');
  for (const table of ['bias_metric_records', 'bias_reports', 'audit_daily_rollups', 'audit_stream']) {
    const t = resource(bq, 'google_bigquery_table', table);
    if (!t || !t.time_partitioning || !str(t.clustering).includes('tenant_id')) problems.push(`BigQuery table ${table} is missing or not partitioned and clustered by tenant_id`);
  }

  // Every variable is typed, described and validated (booleans need no validation). An environment's variable may
  // instead be passed unchanged to a module variable that is validated, so the rule lives in one place.
  for (const [dir, m] of Object.entries(model)) {
    for (const [name, [v]] of Object.entries(m.variable)) {
      if (!v?.type || !v.description) problems.push(`${dir}: variable ${name} needs a type and a description`);
      else if (v.type !== '${bool}' && !v.validation && !(ENVIRONMENTS.includes(dir) && forwardedToValidated(model, dir, name))) {
        problems.push(`${dir}: variable ${name} needs a validation block${ENVIRONMENTS.includes(dir) ? ' or to be passed unchanged to a validated module variable' : ''}`);
      }
    }
  }
  return problems;
}

const calledDir = (dir: string, source: unknown) =>
  typeof source === 'string' && (source.startsWith('./') || source.startsWith('../')) ? posix.normalize(posix.join(dir, source)) : undefined;

function forwardedToValidated(model: TfModel, dir: string, name: string): boolean {
  return Object.values(model[dir]!.module).some(([call]) => {
    const target = model[calledDir(dir, call?.source) ?? '']?.variable;
    return Object.entries(call ?? {}).some(([arg, value]) => {
      const v = target?.[arg]?.[0];
      return value === `\${var.${name}}` && !!v && (!!v.validation || v.type === '${bool}');
    });
  });
}

/** Each environment is a thin root calling modules/bias_monitor, which instantiates every concern module. */
function checkLayout(model: TfModel): string[] {
  const problems: string[] = [];
  const comp = model[COMPOSITION];
  for (const name of CONCERNS) {
    if (comp?.module[name]?.[0]?.source !== `../${name}`) problems.push(`${COMPOSITION} does not instantiate modules/${name}`);
  }
  const fnCall = comp?.module.functions?.[0];
  if (fnCall && fnCall.functions !== '${module.topology.functions}') problems.push(`${COMPOSITION} does not deploy module.topology.functions`);
  const schedCall = comp?.module.scheduler?.[0];
  if (schedCall && schedCall.schedules !== '${module.topology.schedules}') problems.push(`${COMPOSITION} does not schedule module.topology.schedules`);

  const compAddresses = new Set([
    ...Object.keys(comp?.module ?? {}).map((n) => `module.${n}`),
    ...Object.entries(comp?.resource ?? {}).flatMap(([type, byName]) => Object.keys(byName).map((n) => `${type}.${n}`)),
  ]);
  for (const env of ENVIRONMENTS) {
    const m = model[env];
    if (m?.module.bias_monitor?.[0]?.source !== `../../${COMPOSITION}`) problems.push(`${env} does not call ${COMPOSITION}`);
    for (const name of Object.keys(m?.module ?? {})) if (name !== 'bias_monitor') problems.push(`${env} instantiates module ${name} itself instead of through ${COMPOSITION}`);
    for (const [type, byName] of Object.entries(m?.resource ?? {})) {
      for (const name of Object.keys(byName)) problems.push(`${env} declares ${type}.${name}; resources belong in ${COMPOSITION}`);
    }
    // State written before the composition module existed keeps its objects: one moved block per former address.
    const moved = new Map((m?.moved ?? []).map((b) => [str(b.from).replace(/^\$\{(.*)\}$/, '$1'), str(b.to).replace(/^\$\{(.*)\}$/, '$1')]));
    for (const from of FORMER_ROOT_ADDRESSES) {
      const to = moved.get(from);
      if (to !== `module.bias_monitor.${from}`) problems.push(`${env} has no moved block from ${from} to module.bias_monitor.${from}`);
      else if (!compAddresses.has(from)) problems.push(`${env} moves ${from} to module.bias_monitor.${from}, which ${COMPOSITION} does not declare`);
    }
  }
  return problems;
}

/** Expression strings (hcl2json writes every non-literal as "${...}") anywhere below a block. */
function expressions(v: unknown): string[] {
  if (typeof v === 'string') return v.includes('${') ? [v] : [];
  if (Array.isArray(v)) return v.flatMap(expressions);
  if (v && typeof v === 'object') return Object.values(v).flatMap(expressions);
  return [];
}

/**
 * What `terraform validate` would say about module wiring, without providers: a call passes only variables the
 * called module declares and every variable without a default; var.X is declared; module.M is a call here and
 * module.M.O one of its outputs.
 */
function checkModuleCalls(model: TfModel): string[] {
  const problems: string[] = [];
  for (const [dir, m] of Object.entries(model)) {
    for (const [name, [call]] of Object.entries(m.module)) {
      const targetDir = calledDir(dir, call?.source);
      if (!targetDir) continue;
      const target = model[targetDir];
      if (!target) {
        problems.push(`${dir}: module ${name} calls ${str(call?.source)}, which holds no Terraform files`);
        continue;
      }
      const args = Object.keys(call ?? {}).filter((a) => !META_ARGUMENTS.has(a));
      for (const a of args) if (!target.variable[a]) problems.push(`${dir}: module ${name} passes ${a}, which ${targetDir} does not declare`);
      for (const [v, [decl]] of Object.entries(target.variable)) {
        if (decl && !('default' in decl) && !args.includes(v)) problems.push(`${dir}: module ${name} does not pass ${v}, which ${targetDir} requires`);
      }
    }
    const { moved: _movedAddresses, ...blocks } = m;
    for (const e of new Set(expressions(blocks))) {
      for (const [, v] of e.matchAll(/(?<![\w.])var\.([A-Za-z_][\w-]*)/g)) {
        if (!m.variable[v!]) problems.push(`${dir}: var.${v} is not declared`);
      }
      for (const [, call, out] of e.matchAll(/(?<![\w.])module\.([A-Za-z_][\w-]*)(?:\.([A-Za-z_][\w-]*))?/g)) {
        const target = model[calledDir(dir, m.module[call!]?.[0]?.source) ?? ''];
        if (!m.module[call!]) problems.push(`${dir}: module.${call} is not a module call here`);
        else if (out && target && !target.output[out]) problems.push(`${dir}: module.${call}.${out} is not an output of ${str(m.module[call!]![0]!.source)}`);
      }
    }
  }
  return [...new Set(problems)];
}
