// Offline emulator recipe (see docs/decisions/001-local-stack.md): point firebase-tools at the Cloud SDK's
// emulators when they are installed, so nothing is downloaded, and keep firebase-tools' state inside the repo.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';

export const PROJECT_ID = 'demo-bias-monitor';
export const FIRESTORE_HOST = '127.0.0.1:8180';
export const PUBSUB_HOST = '127.0.0.1:8185';
export const REPO_ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
const CACHE_DIR = join(REPO_ROOT, '.cache');

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
  writeFileSync(
    manifest,
    `Main-Class: com.google.cloud.datastore.emulator.firestore.CloudFirestore\nClass-Path: ${sdkJar}\n`,
  );
  execFileSync('jar', ['cfm', wrapper, manifest]);
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
