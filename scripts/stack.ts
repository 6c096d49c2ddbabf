// `npm start`: runs the whole local stack in the foreground until Ctrl-C.
//   npm start -- --export          save Firestore state to emulator-data/ on exit
//   npm start -- --verbose         mirror function logs here
//   npm start -- --no-ticks        do not emulate Cloud Scheduler
import { startStack } from './lib/stack';

const args = new Set(process.argv.slice(2));
const stack = await startStack({
  exportOnExit: args.has('--export'),
  echoLogs: args.has('--verbose'),
  ticks: !args.has('--no-ticks'),
  faultInjection: args.has('--fault-injection'),
});

const pad = (s: string, n: number) => s.padEnd(n);
console.log('\nBias Monitor local stack is up (project demo-bias-monitor)\n');
console.log(`  ${pad('Firestore emulator', 26)} http://127.0.0.1:8180`);
console.log(`  ${pad('Pub/Sub emulator', 26)} http://127.0.0.1:8185`);
for (const e of stack.endpoints) console.log(`  ${pad(e.name, 26)} ${e.url}`);
console.log(`
  POST http://127.0.0.1:8081/interactions     record an LLM interaction
  POST http://127.0.0.1:8082/analyze-bias     analyse a response (FR-BIAS-4.3.2)
  POST http://127.0.0.1:8083/graphql          GraphQL API
  POST http://127.0.0.1:8084/council-audit    audit one council session
  Token: npx bias-monitor token --tenant acme --role service
  Logs:  ${stack.logDir}
  Ctrl-C stops everything${args.has('--export') ? ' and exports Firestore to emulator-data/' : ''}.
`);

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping functions and emulators…`);
  await stack.stop();
  console.log('stopped.');
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
