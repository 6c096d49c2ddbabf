import { parseArgs, type ParseArgsConfig } from 'node:util';

/** node:util parseArgs with errors printed as a usage hint instead of a stack trace. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}
