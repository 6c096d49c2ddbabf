// Runs a command with the Firestore and Pub/Sub emulators up, and returns the command's exit code.
import { spawnSync } from 'node:child_process';
import { PROJECT_ID, REPO_ROOT, emulatorEnv, firebaseBin } from './lib/emulators';

const args = process.argv.slice(2);
// One argument is a shell command line already; several are words to quote.
const command = args.length === 1 ? args : args.map((a) => (/[\s"'$]/.test(a) ? `'${a.replaceAll("'", "'\\''")}'` : a));
if (command.length === 0) {
  console.error('usage: tsx scripts/with-emulators.ts <command...>');
  process.exit(2);
}
const result = spawnSync(
  firebaseBin,
  ['emulators:exec', '--only', 'firestore,pubsub', '--project', PROJECT_ID, command.join(' ')],
  { cwd: REPO_ROOT, env: emulatorEnv(), stdio: 'inherit' },
);
process.exit(result.status ?? 1);
