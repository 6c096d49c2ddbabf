// Restarts only the Pub/Sub emulator of a running local stack (Firestore keeps its state): kills it like a crash,
// keeps it down for an outage, starts a fresh one on the same port and re-wires topics and subscriptions.
// The reliability suite uses it (docs/decisions/061-pubsub-only-restart.md). Linux only: it finds processes by port.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { FUNCTIONS } from '../../shared/topology';
import { PROJECT_ID, emulatorEnv } from './emulators';
import { wirePubSub } from './pubsub-wiring';

export interface PubSubRestartOptions {
  /** host:port of the running Pub/Sub emulator (the stack's PUBSUB_EMULATOR_HOST). */
  pubsubHost: string;
  /** The stack's port offset (push endpoints are re-created for it). */
  portOffset: number;
  logDir: string;
  projectId?: string;
  /** How long the bus stays down before the new emulator starts (default 3 s). */
  outageMs?: number;
  /** How long functions see the new, still empty emulator (publishes fail NOT_FOUND) before re-wiring (default 2 s). */
  emptyMs?: number;
  /** Function processes to pause while the bus is re-wired (default: whatever listens on the topology's ports). */
  functionPids?: number[];
  /**
   * Runs with the functions paused just before the crash: e.g. let a test's observers pull what the broker already
   * accepted from the system (production Pub/Sub keeps accepted messages; the emulator loses them on a crash).
   */
  beforeCrash?: () => Promise<void>;
  /** Runs after re-wiring, before functions resume: e.g. re-create a test's own subscriptions with no gap. */
  beforeResume?: () => Promise<void>;
  log?: (line: string) => void;
}

export interface RestartedPubSub {
  pid: number;
  /** Stops the replacement emulator (the stack's own stop() does not know it). */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

async function waitPort(port: number, open: boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while ((await portOpen(port)) !== open) {
    if (Date.now() > deadline) throw new Error(`port ${port} did not ${open ? 'open' : 'close'} within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** The pid listening on a local TCP port, from /proc (own processes only). */
export function listeningPid(port: number): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`) && cols[3] === '0A' && cols[9]) inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${fd}`));
        if (m && inodes.has(m[1]!)) return Number(entry);
      } catch {
        /* fd closed meanwhile */
      }
    }
  }
  return undefined;
}

function pubsubBinary(): string {
  const fromSdk = emulatorEnv().PUBSUB_EMULATOR_BINARY_PATH;
  if (fromSdk && existsSync(fromSdk)) return fromSdk;
  // firebase-tools' own download (a machine without the Cloud SDK emulators).
  const cache = process.env.FIREBASE_EMULATORS_PATH ?? join(homedir(), '.cache', 'firebase', 'emulators');
  const dir = existsSync(cache) ? readdirSync(cache).find((d) => d.startsWith('pubsub-emulator-') && !d.endsWith('.zip')) : undefined;
  const bin = dir && join(cache, dir, 'pubsub-emulator', 'bin', 'cloud-pubsub-emulator');
  if (bin && existsSync(bin)) return bin;
  throw new Error('no Pub/Sub emulator binary found (Cloud SDK pubsub-emulator or firebase-tools cache)');
}

const signal = (pid: number, sig: NodeJS.Signals) => {
  try {
    process.kill(pid, sig);
  } catch {
    /* gone */
  }
};

export async function restartPubSub(opts: PubSubRestartOptions): Promise<RestartedPubSub> {
  const say = opts.log ?? (() => {});
  const port = Number(opts.pubsubHost.split(':')[1]);
  const old = listeningPid(port);
  if (!old) throw new Error(`nothing listens on ${opts.pubsubHost}`);
  const functionPids =
    opts.functionPids ?? FUNCTIONS.map((f) => listeningPid(f.port + opts.portOffset)).filter((p): p is number => p !== undefined);

  functionPids.forEach((p) => signal(p, 'SIGSTOP'));
  try {
    await opts.beforeCrash?.();
    say(`pubsub: killing emulator pid ${old} (crash)`);
    signal(old, 'SIGKILL');
    await waitPort(port, false, 10_000);
  } finally {
    // Functions run through the outage: their publishes fail or hang, HTTP callers see 503 and retry.
    functionPids.forEach((p) => signal(p, 'SIGCONT'));
  }
  await sleep(opts.outageMs ?? 3_000);

  const out = createWriteStream(join(opts.logDir, 'pubsub-restarted.log'), { flags: 'a' });
  const child = spawn(pubsubBinary(), [`--host=127.0.0.1`, `--port=${port}`], { env: emulatorEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(out);
  child.stderr?.pipe(out);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
    const done = new Promise<void>((r) => child.once('exit', () => r()));
    signal(-child.pid, 'SIGTERM');
    await Promise.race([done, sleep(5_000)]);
    signal(-child.pid, 'SIGKILL');
  };
  try {
    await waitPort(port, true, 60_000);
    say(`pubsub: new emulator pid ${child.pid} up; functions see an empty broker for ${opts.emptyMs ?? 2_000} ms`);
    await sleep(opts.emptyMs ?? 2_000);
    // Pause the functions while topics and subscriptions come back, so nothing is published into a topic before
    // an observer's subscription exists (the emulator's subscriptions do not survive; production's do).
    functionPids.forEach((p) => signal(p, 'SIGSTOP'));
    try {
      await wirePubSub({ projectId: opts.projectId ?? PROJECT_ID, portOffset: opts.portOffset });
      await opts.beforeResume?.();
    } finally {
      functionPids.forEach((p) => signal(p, 'SIGCONT'));
    }
    say('pubsub: re-wired; functions resumed');
  } catch (e) {
    await stop();
    throw e;
  }
  return { pid: child.pid!, stop };
}
