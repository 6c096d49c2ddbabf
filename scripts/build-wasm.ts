// Regenerates the base64 modules of the WebAssembly kernels from their .wat sources (scripts/lib/wat.ts).
//   npx tsx scripts/build-wasm.ts
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { assembleWat, wasmModuleSource, watFiles } from './lib/wat';

for (const { wat, ts } of watFiles()) {
  const bytes = await assembleWat(wat);
  writeFileSync(ts, wasmModuleSource(basename(wat), bytes));
  console.log(`${wat} → ${ts} (${bytes.length} bytes)`);
}
