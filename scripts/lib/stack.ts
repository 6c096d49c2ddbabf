// The local stack: Firestore + Pub/Sub emulators (firebase-tools), every function under functions-framework on its
// fixed port, topics and push subscriptions wired as in production, the taxonomy seeded and scheduler ticks emulated.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { PubSub } from '@google-cloud/pubsub';
import { cronMatches } from '../../shared/domain/cron';
import { FUNCTIONS, SCHEDULES, type FunctionTarget } from '../../shared/topology';
import { devSecrets } from './dev-secrets';
import { PROJECT_ID, REPO_ROOT, emulatorEnv, firebaseBin, firebaseConfigFor, shiftPorts } from './emulators';
import { wirePubSub } from './pubsub-wiring';
import { seedTaxonomy } from './seed';

export interface StackOptions {
  /** Save Firestore state back to emulator-data/ on stop. */
  exportOnExit?: boolean;
  /** Load emulator-data/ at start (default true). */
  importData?: boolean;
  /** Lets `[[fault:N]]` markers make the analyzer fail (tests only). */
  faultInjection?: boolean;
  /** Publish scheduler ticks on the SCHEDULES crons (default true for `npm start`). */
  ticks?: boolean;
  /** Mirror function logs to this process's stdout. */
  echoLogs?: boolean;
  /** Subset of function entry points to run (default all). */
  only?: string[];
  /** Extra environment for the functions. */
  env?: Record<string, string>;
  log?: (line: string) => void;
  /** Shifts every emulator and function port, so a test stack can run beside `npm start` (default 0). */
  portOffset?: number;
}

export interface RunningStack {
  projectId: string;
  logDir: string;
  env: Record<string, string>;
  endpoints: { name: string; url: string; signature: string; trigger?: string }[];
  /** Base URL of a function by entry point, e.g. url('auditWriteHttp'). */
  url(entryPoint: string): string;
  portOffset: number;
  functionsByName: Map<string, ChildProcess>;
  restartEmulators(): Promise<void>;
  stop(): Promise<void>;
}

function waitForPort(hostPort: string, timeoutMs: number): Promise<void> {
  const [host, port] = hostPort.split(':') as [string, string];
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(Number(port), host);
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${hostPort} did not open within ${timeoutMs} ms`));
        else setTimeout(attempt, 150);
      });
    };
    attempt();
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

const killGroup = (child: ChildProcess | undefined, signal: NodeJS.Signals) => {
  if (!child?.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
};

const exited = (child: ChildProcess, timeoutMs: number) =>
  new Promise<boolean>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });

export async function startStack(opts: StackOptions = {}): Promise<RunningStack> {
  const say = opts.log ?? ((l: string) => console.log(l));
  const logDir = join(REPO_ROOT, '.cache', 'logs', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(logDir, { recursive: true });
  const offset = opts.portOffset ?? 0;
  const targets = FUNCTIONS.filter((f) => !opts.only || opts.only.includes(f.entryPoint)).map((f) => ({ ...f, port: f.port + offset }));
  const ports = shiftPorts(offset);
  const FIRESTORE_HOST = `127.0.0.1:${ports.firestore}`;
  const PUBSUB_HOST = `127.0.0.1:${ports.pubsub}`;

  for (const port of [...Object.values(ports), ...targets.map((t) => t.port)]) {
    if (!(await portFree(port))) throw new Error(`port ${port} is in use: is another stack running? Stop it first.`);
  }

  const secrets = devSecrets();
  const functionEnv: Record<string, string> = {
    GCLOUD_PROJECT: PROJECT_ID,
    FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST,
    PUBSUB_EMULATOR_HOST: PUBSUB_HOST,
    AUTH_HS256_SECRET: secrets.AUTH_HS256_SECRET,
    HMAC_SECRET: secrets.HMAC_SECRET,
    METADATA_SERVER_DETECTION: 'none',
    NODE_ENV: 'development',
    DUCKDB_PATH: join(REPO_ROOT, '.cache', 'warehouse.duckdb'),
    ...(opts.faultInjection ? { FAULT_INJECTION: 'true' } : {}),
    ...opts.env,
  };
  Object.assign(process.env, { FIRESTORE_EMULATOR_HOST: FIRESTORE_HOST, PUBSUB_EMULATOR_HOST: PUBSUB_HOST, GCLOUD_PROJECT: PROJECT_ID, METADATA_SERVER_DETECTION: 'none' });

  let emulators: ChildProcess | undefined;
  const dataDir = join(REPO_ROOT, 'emulator-data');
  const startEmulators = async () => {
    const args = ['emulators:start', '--config', firebaseConfigFor(ports), '--only', 'firestore,pubsub', '--project', PROJECT_ID];
    if (opts.importData !== false && existsSync(join(dataDir, 'firebase-export-metadata.json'))) args.push('--import', dataDir);
    if (opts.exportOnExit) args.push('--export-on-exit', dataDir);
    const out = createWriteStream(join(logDir, 'emulators.log'), { flags: 'a' });
    emulators = spawn(firebaseBin, args, { cwd: REPO_ROOT, env: emulatorEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    emulators.stdout?.pipe(out);
    emulators.stderr?.pipe(out);
    await Promise.all([waitForPort(FIRESTORE_HOST, 60_000), waitForPort(PUBSUB_HOST, 60_000)]);
  };
  const stopEmulators = async () => {
    if (!emulators) return;
    // SIGINT to firebase alone, so it can export before the Java emulators go down; then clear the group.
    if (emulators.pid) process.kill(emulators.pid, 'SIGINT');
    if (!(await exited(emulators, 30_000))) killGroup(emulators, 'SIGKILL');
    killGroup(emulators, 'SIGKILL');
  };

  const children = new Map<string, ChildProcess>();
  let ticker: NodeJS.Timeout | undefined;
  const stop = async () => {
    if (ticker) clearInterval(ticker);
    for (const child of children.values()) killGroup(child, 'SIGTERM');
    await Promise.all([...children.values()].map(async (c) => (await exited(c, 5_000)) || killGroup(c, 'SIGKILL')));
    await stopEmulators();
  };

  try {
    say(`starting emulators (logs: ${logDir})`);
    const t0 = Date.now();
    await startEmulators();
    say(`emulators ready in ${Date.now() - t0} ms: Firestore ${FIRESTORE_HOST}, Pub/Sub ${PUBSUB_HOST}`);
    const wiring = await wirePubSub({ projectId: PROJECT_ID, portOffset: offset });
    say(`pub/sub wired: ${wiring.topics.length} topics, ${wiring.subscriptions.length} subscriptions`);
    const seeded = await seedTaxonomy(PROJECT_ID);
    say(`bias_taxonomy seeded (${seeded} new entries)`);

    const ff = join(REPO_ROOT, 'node_modules', '@google-cloud', 'functions-framework', 'build', 'src', 'main.js');
    const startFunction = (fn: FunctionTarget) => {
      const out = createWriteStream(join(logDir, `${fn.name}.log`), { flags: 'a' });
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', ff, `--target=${fn.entryPoint}`, `--signature-type=${fn.signature}`, `--port=${fn.port}`, `--source=${join('functions', fn.source, 'index.ts')}`],
        { cwd: REPO_ROOT, env: { ...process.env, ...functionEnv }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout?.pipe(out);
      child.stderr?.pipe(out);
      if (opts.echoLogs) {
        child.stdout?.on('data', (b: Buffer) => process.stdout.write(b.toString().replace(/^(?=.)/gm, `[${fn.name}] `)));
        child.stderr?.on('data', (b: Buffer) => process.stderr.write(b.toString().replace(/^(?=.)/gm, `[${fn.name}] `)));
      }
      children.set(fn.name, child);
    };
    targets.forEach(startFunction);
    await Promise.all(targets.map((t) => waitForPort(`127.0.0.1:${t.port}`, 60_000)));
    say(`${targets.length} functions ready in ${Date.now() - t0} ms`);

    if (opts.ticks) {
      const ps = new PubSub({ projectId: PROJECT_ID });
      let lastMinute = -1;
      ticker = setInterval(() => {
        const now = new Date();
        const minute = Math.floor(now.getTime() / 60_000);
        if (minute === lastMinute) return;
        lastMinute = minute;
        for (const s of SCHEDULES) {
          if (!cronMatches(s.cron, now)) continue;
          void ps.topic(s.topic).publishMessage({ json: { job: s.job, now: now.toISOString() } });
          say(`tick: ${s.job} → ${s.topic}`);
        }
      }, 5_000);
      ticker.unref();
    }
  } catch (e) {
    await stop();
    throw e;
  }

  return {
    projectId: PROJECT_ID,
    logDir,
    env: functionEnv,
    endpoints: targets.map((t) => ({
      name: t.name,
      url: t.trigger ? `http://127.0.0.1:${t.port} (push from ${t.trigger})` : `http://127.0.0.1:${t.port}`,
      signature: t.signature,
      ...(t.trigger ? { trigger: t.trigger } : {}),
    })),
    functionsByName: children,
    portOffset: offset,
    url(entryPoint: string) {
      const t = targets.find((f) => f.entryPoint === entryPoint);
      if (!t) throw new Error(`no function ${entryPoint} in this stack`);
      return `http://127.0.0.1:${t.port}`;
    },
    async restartEmulators() {
      await stopEmulators();
      await startEmulators();
      await wirePubSub({ projectId: PROJECT_ID, portOffset: offset });
    },
    stop,
  };
}
