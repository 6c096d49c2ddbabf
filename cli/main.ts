// bias-monitor <command> [options]. Each command lives in cli/commands/<name>.ts and exports `summary` and `run`.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CliCommand {
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

const here = dirname(fileURLToPath(import.meta.url));
const names = readdirSync(join(here, 'commands'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

async function load(name: string): Promise<CliCommand> {
  return (await import(join(here, 'commands', `${name}.ts`))) as CliCommand;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log('usage: bias-monitor <command> [options]\n\ncommands:');
    for (const n of names) console.log(`  ${n.padEnd(14)} ${(await load(n)).summary}`);
    console.log('\nbias-monitor <command> --help shows a command\'s options.');
    return 0;
  }
  if (!names.includes(name)) {
    console.error(`unknown command "${name}". Commands: ${names.join(', ')}`);
    return 2;
  }
  const command = await load(name);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  return command.run(rest);
}

process.exitCode = await main(process.argv.slice(2));
