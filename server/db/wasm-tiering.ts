/**
 * How long V8 may spend optimising the embedded database's WebAssembly, for processes that open it briefly.
 *
 * PostgreSQL's start-up runs one of its functions (105 KB of WebAssembly) hot enough that V8 compiles it again with its
 * optimising compiler on a background thread: 2 s of CPU and 600 MB of memory, which a process then waits for at exit.
 * A process that opens the database for one command pays that for nothing: `sso user show` took 3.3 s and 850 MB at its
 * peak with it, 1.4 s and 310 MB without. A server keeps V8's default, since over a long run the optimised code pays
 * (`npm run bench`, embedded: 12.8 ms of database CPU per sign-in with it, 15.4 ms without).
 */
import v8 from 'node:v8';

/**
 * V8's tiering budget (roughly, the bytes of WebAssembly a function runs before it is compiled again, optimised) at its
 * largest, which keeps every function on V8's baseline compiler.
 */
export const BASELINE_WASM_ONLY = `--wasm-tiering-budget=${2 ** 31 - 1}`;

/** Keeps WebAssembly that this process compiles from now on unoptimised: call before the embedded database opens. */
export function openBrieflyWithoutOptimising(): void {
  v8.setFlagsFromString(BASELINE_WASM_ONLY);
}
