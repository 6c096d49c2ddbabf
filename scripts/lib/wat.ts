// Assembles the WebAssembly kernels of shared/domain (*.wat) with wabt and renders them as TypeScript modules
// holding the bytes in base64, so the functions bundle (esbuild) needs no .wasm loader. Used by
// scripts/build-wasm.ts and by the unit test that checks the committed bytes.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import wabt from 'wabt';

export const WAT_DIRS = ['stats/wasm', 'council/wasm'].map((d) => join(import.meta.dirname, '../../shared/domain', d));

/** The .wat files and the generated module next to each (bootstrap.wat → bootstrap.wasm.ts). */
export function watFiles(): { wat: string; ts: string }[] {
  return WAT_DIRS.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.wat'))
      .sort()
      .map((f) => ({ wat: join(dir, f), ts: join(dir, `${basename(f, '.wat')}.wasm.ts`) })),
  );
}

/**
 * wabt's default features (the bootstrap kernel uses 128-bit SIMD, in V8 since Node 16.4) and no name section, so
 * the bytes depend on the source alone.
 */
export async function assembleWat(file: string): Promise<Uint8Array> {
  const w = await wabt();
  const mod = w.parseWat(basename(file), readFileSync(file, 'utf8'));
  try {
    mod.validate();
    return mod.toBinary({ write_debug_names: false, canonicalize_lebs: true }).buffer;
  } finally {
    mod.destroy();
  }
}

export function wasmModuleSource(watName: string, bytes: Uint8Array): string {
  const b64 = Buffer.from(bytes).toString('base64');
  const lines = b64.match(/.{1,100}/g) ?? [];
  return [
    `// Generated from ${watName} by \`npx tsx scripts/build-wasm.ts\` (wabt); do not edit. ${bytes.length} bytes.`,
    'export const WASM_BASE64 =',
    ...lines.map((l, i) => `  '${l}'${i === lines.length - 1 ? ';' : ' +'}`),
    '',
  ].join('\n');
}
