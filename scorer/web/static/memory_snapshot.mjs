// A memory snapshot of the browser's Python, started and with the standard library modules
// the app imports already imported, so a phone starts from it instead of starting CPython from
// scratch at every visit. scorer/web/build.py runs:
//   node memory_snapshot.mjs PYODIDE_FOLDER PACK_FOLDER OUT_FILE
// PACK_FOLDER is the app archive's folder (main.py, scorer/, __pypackages__/).
//
// Pyodide's snapshots hold the WebAssembly memory only: no module loaded from a shared
// library (pydantic-core, msgpack) may be in one, and the files stay in the app archive. So a
// first Python imports the app to learn which standard library modules it uses, and a second,
// fresh one imports only those (the pure ones) before the snapshot is taken.
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, pack, out] = process.argv.slice(2);
if (!("Suspending" in WebAssembly)) {
  // The runtime notes at its start whether it can wait for a promise; Chromium can.
  console.error("this Node.js cannot suspend WebAssembly (JSPI): a snapshot made here would not wait in Chromium");
  process.exit(1);
}
const { loadPyodide } = await import(pathToFileURL(runtime + "/pyodide.mjs").href);

const learner = await loadPyodide({ indexURL: runtime + "/" });
await learner.loadPackage("msgpack", { messageCallback: () => {} });
learner.FS.mkdirTree("/pack");
learner.FS.mount(learner.FS.filesystems.NODEFS, { root: pack }, "/pack");
const names = learner.runPython(`
import importlib, sys
sys.path[:0] = ["/pack/__pypackages__", "/pack"]
before = set(sys.modules)
importlib.import_module("scorer.web.main")
stdlib = sys.prefix.rstrip("/") + "/lib/python"
wanted = []
for name in sorted(set(sys.modules) - before):
    spec = getattr(sys.modules[name], "__spec__", None)
    origin = getattr(spec, "origin", None) or ""
    pure = origin in ("built-in", "frozen") or (origin.startswith(stdlib) and origin.endswith((".py", ".pyc")))
    if pure and "site-packages" not in origin and not name.startswith(("js", "pyodide_js")):
        wanted.append(name)
"\\n".join(wanted)
`).split("\n").filter(Boolean);

const maker = await loadPyodide({ indexURL: runtime + "/", _makeSnapshot: true });
maker.globals.set("wanted", maker.toPy(names));
const imported = maker.runPython(`
import importlib, sys
done = 0
for name in wanted:
    try:
        importlib.import_module(name)
        done += 1
    except Exception:
        pass
done
`);
maker.globals.delete("wanted");
const snapshot = maker.makeMemorySnapshot();
writeFileSync(out, snapshot);
console.log(JSON.stringify({ modules: names.length, imported, bytes: snapshot.length }));
