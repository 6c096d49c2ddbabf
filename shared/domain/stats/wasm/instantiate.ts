// Synchronous instantiation of the small WebAssembly kernels of shared/domain (pure computation: no imports, no
// I/O). V8 compiles them with its baseline compiler (Liftoff) in well under a millisecond, so a kernel runs at
// native speed from its first call, where the same loop in JavaScript starts in the interpreter and waits for the
// optimising compiler (decision 044). The JavaScript implementations stay the specification and the fallback.

/** The part of the WebAssembly JS API used here (the project's `lib` setting has no DOM types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports?: object) => { exports: Record<string, unknown> };
}

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

const PAGE = 65_536;

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The module's exports, or null where WebAssembly is unavailable (e.g. node --jitless) or refuses the module. */
export function instantiateWasm(base64: string): Record<string, unknown> | null {
  const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (api === undefined) return null;
  try {
    return new api.Instance(new api.Module(decodeBase64(base64)), {}).exports;
  } catch {
    return null;
  }
}

/** Grows `memory` to at least `bytes`; false when it cannot grow. */
export function ensureMemory(memory: WasmMemory, bytes: number): boolean {
  const have = memory.buffer.byteLength;
  if (have >= bytes) return true;
  try {
    memory.grow(Math.ceil((bytes - have) / PAGE));
    return true;
  } catch {
    return false;
  }
}
