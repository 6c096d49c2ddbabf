// Runs a command with the Firestore and Pub/Sub emulators up, and returns the command's exit code.
// The emulators get a free port range of their own, so several runs (and a running `npm start`) can coexist;
// the command sees FIRESTORE_EMULATOR_HOST / PUBSUB_EMULATOR_HOST for that range.
import { spawn } from 'node:child_process';
import { PROJECT_ID, REPO_ROOT, emulatorEnv, firebaseBin, firebaseConfigFor, freeOffset, shiftPorts } from './lib/emulators';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: tsx scripts/with-emulators.ts <command...>');
  process.exit(2);
}
// One argument is a shell command line already; several are words to quote.
const command = args.length === 1 ? args[0]! : args.map((a) => (/[\s"'$]/.test(a) ? `'${a.replaceAll("'", "'\\''")}'` : a)).join(' ');
const ports = shiftPorts(await freeOffset());
const child = spawn(
  firebaseBin,
  ['emulators:exec', '--config', firebaseConfigFor(ports), '--only', 'firestore,pubsub', '--project', PROJECT_ID, command],
  { cwd: REPO_ROOT, env: emulatorEnv(), stdio: 'inherit', detached: true },
);
// firebase-tools and the Java emulators share a process group; take the whole group down with us.
const forward = (signal: NodeJS.Signals) => {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    /* gone */
  }
};
process.on('SIGINT', () => forward('SIGINT'));
process.on('SIGTERM', () => forward('SIGTERM'));
child.on('exit', (code, signal) => {
  forward('SIGKILL');
  process.exit(code ?? (signal ? 1 : 0));
});
