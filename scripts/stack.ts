// `npm start`: runs the whole local stack in the foreground until Ctrl-C.
//   npm start -- --export          save Firestore state to emulator-data/ on exit
//   npm start -- --verbose         mirror function logs here
//   npm start -- --no-ticks        do not emulate Cloud Scheduler
//   npm start -- --port-offset N   shift every port by N (run beside another stack)
import { startStack } from './lib/stack';

const argv = process.argv.slice(2);
const args = new Set(argv);
const offsetArg = argv.indexOf('--port-offset');
const portOffset = offsetArg >= 0 ? Number(argv[offsetArg + 1]) : 0;
if (!Number.isInteger(portOffset) || portOffset < 0) {
  console.error('--port-offset needs a non-negative integer');
  process.exit(2);
}
const stack = await startStack({
  portOffset,
  exportOnExit: args.has('--export'),
  echoLogs: args.has('--verbose'),
  ticks: !args.has('--no-ticks'),
  faultInjection: args.has('--fault-injection'),
});

const pad = (s: string, n: number) => s.padEnd(n);
console.log('\nBias Monitor local stack is up (project demo-bias-monitor)\n');
console.log(`  ${pad('Firestore emulator', 26)} http://${stack.env.FIRESTORE_EMULATOR_HOST}`);
console.log(`  ${pad('Pub/Sub emulator', 26)} http://${stack.env.PUBSUB_EMULATOR_HOST}`);
for (const e of stack.endpoints) console.log(`  ${pad(e.name, 26)} ${e.url}`);
console.log(`
  POST ${stack.url('auditWriteHttp')}/interactions     record an LLM interaction
  POST ${stack.url('analyzeBiasHttp')}/analyze-bias     analyse a response (FR-BIAS-4.3.2)
  POST ${stack.url('graphql')}/graphql          GraphQL API
  POST ${stack.url('councilAuditHttp')}/council-audit    audit one council session
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
