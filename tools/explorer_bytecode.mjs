// The explorer's bytecode: Pyodide (from explorer/node_modules) unpacks the bundle's wheels,
// compiles every module of them, and the .pyc files are written to one zip archive beside the
// wheels, which the page unpacks after them. Compiling gaple's modules in the page took about
// two thirds of its import (a quarter of a second on this machine); the interpreter that
// compiles them here is the page's own, so its bytecode is what the page would make.
// The .pyc files are "unchecked hash" ones: used whatever the date of the sources, which the
// archive's unpacking does not keep. They are made from the very wheels they sit beside, in
// the same build (tools/build_explorer.py), so they never go stale.
// Usage: node tools/explorer_bytecode.mjs PYODIDE-FOLDER WHEELS-FOLDER ARCHIVE
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideFolder, wheelsFolder, archive] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(join(pyodideFolder, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideFolder + "/", fullStdLib: false });
for (const wheel of (await readdir(wheelsFolder)).filter((name) => name.endsWith(".whl")).sort()) {
  pyodide.unpackArchive(new Uint8Array(await readFile(join(wheelsFolder, wheel))), "wheel");
}
const count = pyodide.runPython(`
import compileall, os, py_compile, zipfile
import attr, gaple

root = os.path.dirname(os.path.dirname(gaple.__file__))
mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
for package in ("gaple", "attr", "attrs"):
    if not compileall.compile_dir(os.path.join(root, package), quiet=1, invalidation_mode=mode):
        raise SystemExit(f"a module of {package} does not compile")
written = 0
with zipfile.ZipFile("/tmp/bytecode.zip", "w", zipfile.ZIP_DEFLATED) as out:
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            if name.endswith(".pyc"):
                path = os.path.join(folder, name)
                out.write(path, os.path.relpath(path, root))
                written += 1
written
`);
await writeFile(archive, pyodide.FS.readFile("/tmp/bytecode.zip"));
console.log(`${count} modules compiled`);
