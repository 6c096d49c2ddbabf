// Offline emulator recipe (see docs/decisions/001-local-stack.md): point firebase-tools at the Cloud SDK's
// emulators when they are installed, so nothing is downloaded, and keep firebase-tools' state inside the repo.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';

export const PROJECT_ID = 'demo-bias-monitor';
export const REPO_ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
const CACHE_DIR = join(REPO_ROOT, '.cache');

/** Fixed ports of `npm start` (firebase.json). Tests may shift them all by an offset to run beside a running stack. */
export interface EmulatorPorts {
  firestore: number;
  pubsub: number;
  hub: number;
  logging: number;
  firestoreWebsocket: number;
}
export const DEFAULT_PORTS: EmulatorPorts = { firestore: 8180, pubsub: 8185, hub: 4400, logging: 4500, firestoreWebsocket: 9150 };
export const shiftPorts = (offset: number): EmulatorPorts =>
  Object.fromEntries(Object.entries(DEFAULT_PORTS).map(([k, v]) => [k, v + offset])) as unknown as EmulatorPorts;

export const FIRESTORE_HOST = `127.0.0.1:${DEFAULT_PORTS.firestore}`;
export const PUBSUB_HOST = `127.0.0.1:${DEFAULT_PORTS.pubsub}`;

/** A firebase.json for the given ports; the repo's own file when they are the defaults. */
export function firebaseConfigFor(ports: EmulatorPorts): string {
  const base = join(REPO_ROOT, 'firebase.json');
  if (ports.firestore === DEFAULT_PORTS.firestore) return base;
  const config = JSON.parse(readFileSync(base, 'utf8')) as {
    emulators: Record<string, Record<string, unknown>>;
    firestore: Record<string, string>;
  };
  config.emulators.firestore = { host: '127.0.0.1', port: ports.firestore, websocketPort: ports.firestoreWebsocket };
  config.emulators.pubsub = { host: '127.0.0.1', port: ports.pubsub };
  config.emulators.hub = { host: '127.0.0.1', port: ports.hub };
  config.emulators.logging = { host: '127.0.0.1', port: ports.logging };
  config.firestore = { indexes: join(REPO_ROOT, 'firestore.indexes.json'), rules: join(REPO_ROOT, 'firestore.rules') };
  mkdirSync(CACHE_DIR, { recursive: true });
  const dir = mkdtempSync(join(CACHE_DIR, 'firebase-'));
  const file = join(dir, 'firebase.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** Finds an offset at which all emulator ports (and `extra` ports) are free. */
export async function freeOffset(extra: number[] = []): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((res) => {
      const srv = createServer();
      srv.once('error', () => res(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const offset = 100 + Math.floor(Math.random() * 300) * 10;
    const ports = [...Object.values(shiftPorts(offset)), ...extra.map((p) => p + offset)];
    const results = await Promise.all(ports.map(free));
    if (results.every(Boolean)) return offset;
  }
  throw new Error('no free port range for the emulators');
}

function findOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, command);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function cloudSdkRoot(): string | undefined {
  const gcloud = findOnPath('gcloud');
  if (!gcloud) return undefined;
  return resolve(dirname(realpathSync(gcloud)), '..');
}

/** firebase-tools runs `java -jar` on the Firestore emulator, but the SDK jar has no Main-Class. */
function firestoreWrapperJar(sdkJar: string): string {
  const wrapper = join(CACHE_DIR, 'firestore-wrapper.jar');
  const stamp = join(CACHE_DIR, 'firestore-wrapper.for');
  if (existsSync(wrapper) && existsSync(stamp) && readFileSync(stamp, 'utf8') === sdkJar) return wrapper;
  mkdirSync(CACHE_DIR, { recursive: true });
  const work = mkdtempSync(join(CACHE_DIR, 'jar-'));
  const manifest = join(work, 'MANIFEST.MF');
  writeFileSync(manifest, `Main-Class: com.google.cloud.datastore.emulator.firestore.CloudFirestore\nClass-Path: ${sdkJar}\n`);
  const tmp = join(work, 'firestore-wrapper.jar');
  execFileSync('jar', ['cfm', tmp, manifest]);
  // Rename is atomic, so concurrent first runs never see a half-written jar.
  execFileSync('mv', ['-f', tmp, wrapper]);
  writeFileSync(stamp, sdkJar);
  return wrapper;
}

/** Environment for firebase-tools; unchanged on a machine without the SDK emulators (firebase downloads its own). */
export function emulatorEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...base,
    XDG_CONFIG_HOME: join(CACHE_DIR, 'config'),
    METADATA_SERVER_DETECTION: 'none',
    FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true',
  };
  const sdk = cloudSdkRoot();
  if (sdk) {
    const pubsub = join(sdk, 'platform', 'pubsub-emulator', 'bin', 'cloud-pubsub-emulator');
    const firestoreJar = join(sdk, 'platform', 'cloud-firestore-emulator', 'cloud-firestore-emulator.jar');
    if (existsSync(pubsub)) env.PUBSUB_EMULATOR_BINARY_PATH = pubsub;
    if (existsSync(firestoreJar)) env.FIRESTORE_EMULATOR_BINARY_PATH = firestoreWrapperJar(firestoreJar);
  }
  return env;
}

export const firebaseBin = join(REPO_ROOT, 'node_modules', '.bin', 'firebase');
