// bias-monitor jobs: the scheduled jobs of shared/topology.ts SCHEDULES, run locally or managed in Cloud Scheduler.
import { parseArgs } from 'node:util';
import { FirestoreAuditStore } from '../../shared/adapters/firestore/audit-store';
import { firestoreFor } from '../../shared/adapters/firestore/client';
import { runAggregateJob } from '../../shared/app/aggregate';
import { createCouncilDeps } from '../../shared/app/council-context';
import { runRetention } from '../../shared/app/retention';
import type { RetentionReport } from '../../shared/schemas/retention';
import { createRetentionDeps } from '../../shared/app/retention-deps';
import { createLogger } from '../../shared/logging';
import { fixedClock, systemClock } from '../../shared/ports/clock';
import { SCHEDULES } from '../../shared/topology';
import { devSecrets } from '../../scripts/lib/dev-secrets';
import { cliConfig } from '../env';

export const summary = 'list, run, pause and resume the scheduled jobs (retention, aggregate, ...)';
export const usage = `bias-monitor jobs list [--project P --location L]
bias-monitor jobs pause NAME --project P --location L
bias-monitor jobs resume NAME --project P --location L
bias-monitor jobs run retention [--dry-run] [--now ISO] [--tenant T]... [--batch-size N] [--json]
bias-monitor jobs run aggregate [--now ISO]

list     prints the schedules defined in shared/topology.ts; with --project and --location it also lists the
         Cloud Scheduler jobs deployed there (Terraform names them <name_prefix><job>).
pause    pauses a deployed Cloud Scheduler job; resume resumes it. NAME is the job name or its full resource name.
run      runs a job once, in this process, against the configured Firestore: the local emulator (127.0.0.1:8180)
         unless FIRESTORE_EMULATOR_HOST / GCLOUD_PROJECT say otherwise. --dry-run reports without writing;
         --now runs as if the clock said ISO (a past instant; a future one only with --dry-run).`;

const OPTIONS = {
  project: { type: 'string' },
  location: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  now: { type: 'string' },
  tenant: { type: 'string', multiple: true },
  'batch-size': { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

function table(rows: string[][]) {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd());
}

async function schedulerClient() {
  const { CloudSchedulerClient } = await import('@google-cloud/scheduler');
  return new CloudSchedulerClient();
}

const jobName = (project: string, location: string, name: string) => (name.startsWith('projects/') ? name : `projects/${project}/locations/${location}/jobs/${name}`);

async function list(project: string | undefined, location: string | undefined): Promise<number> {
  console.log('Schedules (shared/topology.ts):');
  table([['JOB', 'CRON', 'TIME ZONE', 'TOPIC', 'DESCRIPTION'], ...SCHEDULES.map((s) => [s.job, s.cron, s.timeZone, s.topic, s.description])]);
  if (!project && !location) return 0;
  if (!project || !location) {
    console.error('\n--project and --location go together');
    return 2;
  }
  const client = await schedulerClient();
  try {
    const [jobs] = await client.listJobs({ parent: `projects/${project}/locations/${location}` });
    console.log(`\nCloud Scheduler jobs in projects/${project}/locations/${location}:`);
    if (jobs.length === 0) {
      console.log('  (none)');
      return 0;
    }
    const rows = jobs.map((j) => {
      const short = (j.name ?? '').split('/').pop() ?? '';
      const known = SCHEDULES.some((s) => short === s.job || short.endsWith(`-${s.job}`));
      const last = j.lastAttemptTime?.seconds ? new Date(Number(j.lastAttemptTime.seconds) * 1000).toISOString() : '-';
      return [short, String(j.state ?? ''), j.schedule ?? '', j.timeZone ?? '', last, known ? '' : '(not in topology)'];
    });
    table([['NAME', 'STATE', 'CRON', 'TIME ZONE', 'LAST ATTEMPT', ''], ...rows]);
    return 0;
  } finally {
    await client.close();
  }
}

async function setPaused(pause: boolean, name: string | undefined, project: string | undefined, location: string | undefined): Promise<number> {
  if (!name || ((!project || !location) && !name?.startsWith('projects/'))) {
    console.error(`jobs ${pause ? 'pause' : 'resume'} needs NAME, --project and --location\n\n${usage}`);
    return 2;
  }
  const client = await schedulerClient();
  try {
    const full = jobName(project ?? '', location ?? '', name);
    const [job] = pause ? await client.pauseJob({ name: full }) : await client.resumeJob({ name: full });
    console.log(`${job.name}: ${String(job.state)}`);
    return 0;
  } finally {
    await client.close();
  }
}

function printRetention(report: RetentionReport) {
  console.log(`retention run ${report.run_id}${report.dry_run ? ' (dry run: nothing written)' : ''} at ${report.now}`);
  table([
    ['TENANT', 'ANONYMISED', 'ALREADY', 'DAYS ROLLED UP', 'ROLLUP ROWS', 'PURGED', 'EVENTS PURGED', 'SKIPPED'],
    ...report.tenants.map((t) => [t.tenant_id, String(t.anonymized), String(t.already_anonymized), String(t.rolled_up_days), String(t.rollup_rows), String(t.purged), String(t.events_purged), t.skipped ?? '']),
  ]);
  const x = report.totals;
  console.log(`totals: ${x.tenants} tenants, ${x.anonymized} anonymised, ${x.rolled_up_days} days rolled up (${x.rollup_rows} rows), ${x.purged} purged, in ${report.duration_ms} ms`);
}

async function runRetentionJob(o: { dryRun: boolean; now: string | undefined; tenants: string[] | undefined; batchSize: number | undefined; json: boolean }): Promise<number> {
  devSecrets();
  const config = cliConfig();
  // The Firestore client reads the emulator host from the environment; the CLI defaults to the local emulator.
  if (config.FIRESTORE_EMULATOR_HOST) process.env.FIRESTORE_EMULATOR_HOST ??= config.FIRESTORE_EMULATOR_HOST;
  const log = createLogger({ projectId: config.GCLOUD_PROJECT, level: 'WARNING', component: 'cli-jobs', write: (l) => process.stderr.write(`${l}\n`) });
  const clock = o.now ? fixedClock(o.now) : systemClock;
  const deps = createRetentionDeps({ config, log, clock, store: new FirestoreAuditStore(firestoreFor(config)) });
  try {
    const report = await runRetention(deps, { dryRun: o.dryRun, ...(o.tenants ? { tenants: o.tenants } : {}), ...(o.batchSize ? { batchSize: o.batchSize } : {}) });
    if (o.json) console.log(JSON.stringify(report, null, 2));
    else printRetention(report);
    return 0;
  } finally {
    await deps.rollups.close?.();
    await firestoreFor(config).terminate();
  }
}

async function runAggregate(now: string | undefined): Promise<number> {
  devSecrets();
  const deps = createCouncilDeps(cliConfig(), 'cli');
  try {
    console.log(JSON.stringify(await runAggregateJob(deps, { ...(now ? { now } : {}) }), null, 2));
    return 0;
  } finally {
    await deps.warehouse.close();
    await firestoreFor(deps.config).terminate();
  }
}

export async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values: o, positionals } = parsed;
  const [action, target] = positionals;
  if (o.now !== undefined) {
    const t = Date.parse(o.now);
    if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(o.now)) {
      console.error('--now must be an ISO date-time such as 2026-11-22T02:15:00Z');
      return 2;
    }
    if (t > Date.now() + 60_000 && !o['dry-run'] && action === 'run') {
      console.error('--now is in the future: that would anonymise or purge early. Add --dry-run to preview.');
      return 2;
    }
  }
  const batchSize = o['batch-size'] === undefined ? undefined : Number(o['batch-size']);
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)) {
    console.error('--batch-size must be an integer between 1 and 10000');
    return 2;
  }
  switch (action) {
    case 'list':
      return list(o.project, o.location);
    case 'pause':
    case 'resume':
      return setPaused(action === 'pause', target, o.project, o.location);
    case 'run':
      if (target === 'retention') return runRetentionJob({ dryRun: o['dry-run'], now: o.now, tenants: o.tenant, batchSize, json: o.json });
      if (target === 'aggregate') return runAggregate(o.now);
      console.error(`jobs run needs a job: ${SCHEDULES.map((s) => s.job).filter((j) => j === 'retention' || j === 'aggregate').join(', ')}\n\n${usage}`);
      return 2;
    default:
      console.error(usage);
      return 2;
  }
}
