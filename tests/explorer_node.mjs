// Loads the built explorer's bundle through Pyodide in Node, without a browser, and plays
// seeded hands of every preset as the page does (explorer/page/runtime.mjs); prints one JSON
// line per hand for tests/test_explorer_node.py to compare with CPython.
// Usage: node tests/explorer_node.mjs BUILT-EXPLORER-FOLDER SEEDS-PER-PRESET
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const folder = resolve(process.argv[2]);
const seeds = Number(process.argv[3] ?? "2");
const runtime = await import(pathToFileURL(join(folder, "runtime.mjs")).href);
const { loadPyodide } = await import(pathToFileURL(join(folder, "pyodide", "pyodide.mjs")).href);
const readBytes = async (name) => new Uint8Array(await readFile(join(folder, name)));
const reference = await runtime.startReference(loadPyodide, join(folder, "pyodide") + "/", readBytes);
for (const preset of reference.catalogue().presets) {
  for (let seed = 0; seed < seeds; seed += 1) {
    process.stdout.write(JSON.stringify(runtime.playSeeded(reference, preset.name, seed)) + "\n");
  }
}
