// PGlite's engine (a 9 MB wasm) compiled once per process, started as early as possible: `npm start`
// (entry/start.mjs, plain JavaScript, so it sets the same key itself) begins it before loading the bundled
// entry, so the compile runs on V8's background threads while the main thread loads modules, and the
// database opens on an engine already compiled.
import { readFile } from 'node:fs/promises';

/** One compile per process, shared by entry/start.mjs and the bundle (which has its own copy of this module). */
const KEY = Symbol.for('chambers.pgliteWasm');
type Holder = { [KEY]?: Promise<WebAssembly.Module> };

/** The compiled pglite.wasm of the installed @electric-sql/pglite (the file PGlite itself would load). */
export function compilePgliteWasm(): Promise<WebAssembly.Module> {
  const holder = globalThis as Holder;
  holder[KEY] ??= readFile(new URL('pglite.wasm', import.meta.resolve('@electric-sql/pglite'))).then(
    (bytes) => WebAssembly.compile(bytes),
  );
  return holder[KEY];
}
