// The explorer's bridge to the reference: Pyodide started from this folder, the gaple and attrs
// wheels unpacked into it, and gaple.explorer's functions called with JSON text. The page and
// the Node test (tests/explorer_node.mjs) both use it, so both run the same bundle the same way.
// No rule is decided here: every answer is the reference's.

// bundle.json (written by tools/build_explorer.py) names the wheels to unpack.
// Pyodide starts from the snapshot of its interpreter that the build made
// (tools/explorer_snapshot.mjs, gzipped); the wheels are read meanwhile.
export async function startReference(loadPyodide, indexURL, readBytes) {
  const bundle = JSON.parse(new TextDecoder().decode(await readBytes("bundle.json")));
  const snapshot = readBytes(`pyodide/${bundle.snapshot}`).then(gunzip);
  const starting = snapshot.then((memory) =>
    loadPyodide({ indexURL, fullStdLib: false, _loadSnapshot: memory }),
  );
  const archives = Promise.all(bundle.wheels.map((wheel) => readBytes(`wheels/${wheel}`)));
  // Their modules compiled at build time (tools/explorer_bytecode.mjs): unpacked over them.
  const bytecode = readBytes(`wheels/${bundle.bytecode}`);
  const pyodide = await starting;
  for (const archive of await archives) {
    pyodide.unpackArchive(archive, "wheel");
  }
  pyodide.unpackArchive(await bytecode, "zip");
  const explorer = pyodide.pyimport("gaple.explorer");
  const call = (name, ...texts) => JSON.parse(explorer[name](...texts));
  return {
    bundle,
    catalogue: () => call("catalogue"),
    deal: (request) => call("deal", JSON.stringify(request)),
    show: (document) => call("show", JSON.stringify(document)),
    attempt: (state, move) => call("attempt", JSON.stringify(state), move),
  };
}

async function gunzip(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// A seeded hand played through the reference by a fixed choice, the move at (step mod the
// number of legal moves): the hand tests/test_explorer_node.py plays in CPython to compare.
export function playSeeded(reference, preset, seed) {
  let answer = reference.deal({ preset, seed });
  for (let step = 0; answer.ok && answer.view.result === null; step += 1) {
    const moves = answer.view.moves;
    answer = reference.attempt(answer.view.state, moves[step % moves.length].text);
  }
  if (!answer.ok) {
    throw new Error(`${preset} seed ${seed}: ${answer.error}`);
  }
  return { preset, seed, state: answer.view.state, result: answer.view.result };
}
