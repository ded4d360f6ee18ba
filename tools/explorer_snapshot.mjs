// The explorer's interpreter snapshot: Pyodide (from explorer/node_modules) starts once here,
// and its memory, the interpreter initialised, is written gzipped for the page to start from
// (loadPyodide's _loadSnapshot). Starting the interpreter was nearly all of the page's wait
// (2 s in Node, 2.5 to 3 s in Chromium on a 2-core machine); from the snapshot it takes a
// tenth of that. The snapshot holds no package: the page unpacks the wheels and imports gaple
// after it, as without one. It is made by the very Pyodide files the page loads, with the
// same options, in the same build (tools/build_explorer.py).
// Usage: node tools/explorer_snapshot.mjs PYODIDE-FOLDER SNAPSHOT
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const [pyodideFolder, snapshot] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(pyodideFolder, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: pyodideFolder + "/",
  fullStdLib: false,
  _makeSnapshot: true,
});
const memory = pyodide.makeMemorySnapshot();
await writeFile(snapshot, gzipSync(memory, { level: 9 }));
console.log(`snapshot of ${memory.length} bytes`);
