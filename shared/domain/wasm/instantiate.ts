// Synchronous compilation and instantiation of the small WebAssembly kernels of shared/domain (pure computation:
// no imports but memory, no I/O). V8 compiles them with its baseline compiler (Liftoff) in well under a
// millisecond, so a kernel runs as machine code from its first call, where the same loop in JavaScript starts in
// the interpreter and waits for the optimising compiler (decision 044). The JavaScript implementations stay the
// specification and the fallback where WebAssembly is unavailable (e.g. node --jitless).

/** The part of the WebAssembly JS API used here (the project's `lib` setting has no DOM types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports?: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export const WASM_PAGE = 65_536;

const api = (): WasmApi | null => (globalThis as { WebAssembly?: WasmApi }).WebAssembly ?? null;

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The compiled module, or null where WebAssembly is unavailable or refuses it. */
export function compileWasm(base64: string): object | null {
  const wa = api();
  if (wa === null) return null;
  try {
    return new wa.Module(decodeBase64(base64));
  } catch {
    return null;
  }
}

/** An instance's exports, or null when instantiation fails. */
export function instantiateWasm(module: object, imports: object = {}): Record<string, unknown> | null {
  const wa = api();
  if (wa === null) return null;
  try {
    return new wa.Instance(module, imports).exports;
  } catch {
    return null;
  }
}

/** A new, zeroed memory of at least `bytes`; null when it cannot be had. */
export function newWasmMemory(bytes: number): WasmMemory | null {
  const wa = api();
  if (wa === null) return null;
  try {
    return new wa.Memory({ initial: Math.max(1, Math.ceil(bytes / WASM_PAGE)) });
  } catch {
    return null;
  }
}

/** Grows `memory` to at least `bytes`; false when it cannot grow. */
export function ensureMemory(memory: WasmMemory, bytes: number): boolean {
  const have = memory.buffer.byteLength;
  if (have >= bytes) return true;
  try {
    memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
    return true;
  } catch {
    return false;
  }
}
