// Compile the app archive's Python files to bytecode with the browser's own Python (Pyodide,
// here in Node), so the phone does not compile them at every start. scorer/web/build.py runs:
//   node compile.mjs PYODIDE_FOLDER PACK_FOLDER
// Each module's bytecode is written beside its source (X.pyc, as for a sourceless install),
// so the build can leave the sources out of the archive.
import { pathToFileURL } from "node:url";

const [runtime, pack] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(runtime + "/pyodide.mjs").href);
const pyodide = await loadPyodide({ indexURL: runtime + "/" });
pyodide.FS.mkdirTree("/pack");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: pack }, "/pack");
// Unchecked hashes: the phone uses the bytecode without comparing it with the source's time.
const ok = pyodide.runPython(`
import compileall, py_compile
compileall.compile_dir(
    "/pack", quiet=1, legacy=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
)
`);
if (!ok) {
  console.error("some files did not compile");
  process.exit(1);
}
