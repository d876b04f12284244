// A memory snapshot of the browser's Python, started and with the modules the app imports
// already imported where a snapshot can hold them, so a phone starts from it instead of
// starting CPython and importing them at every visit. scorer/web/build.py runs:
//   node memory_snapshot.mjs PYODIDE_FOLDER PACK_FOLDER OUT_FILE
// PACK_FOLDER is the app archive's folder (main.py, scorer/, __pypackages__/).
//
// Pyodide's snapshots hold the WebAssembly memory only: no module loaded from a shared
// library (pydantic-core, msgpack) may be in one, nor any that reaches JavaScript, and the
// files stay in the app archive. So a first Python imports the app as the browser does and
// notes who imports whom; a module is left out when it, or anything it imports, is such a
// module (pydantic and all that builds on it). Flet imports a control's module when the app
// first names it (ft.FilledButton): the first Python also imports every Flet name the app's
// imported modules use (ft.run's page and theme among them), so the first screen finds its
// controls imported; Flet's session is left out, as it speaks msgpack (a shared library). A
// second, fresh Python imports the rest (the standard library's, Flet, openskill, TinyDB, the
// app's own pure modules) with every shared library and JavaScript module refused, and fails
// the build if any module asked for one (it might have gone on without it, and the snapshot
// would keep that). Both import from the runtime's working folder, where the browser's
// worker unpacks the archive, so the modules' paths are the browser's.
//
// The imports grow the memory past the runtime's first (30 MiB); scorer/web/build.py patches
// the runtime to grow its memory to the snapshot's as it restores one.
//
// Pyodide ships its standard library as sources, so a module of it imported outside the
// snapshot is compiled at every start (pyodide.http, which Flet's worker imports: 0.3 s), and
// in a browser that starts from scratch every one is. So before the second Python starts, the
// first one replaces, in the runtime's python_stdlib.zip, the sources of every standard
// library module it imported (the app's, Flet's worker's, its own start's) with their bytecode;
// the rest stay sources, which travel smaller (the zip is gzipped whole on the way).
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [runtime, pack, out] = process.argv.slice(2);
if (!("Suspending" in WebAssembly)) {
  // The runtime notes at its start whether it can wait for a promise; Chromium can.
  console.error("this Node.js cannot suspend WebAssembly (JSPI): a snapshot made here would not wait in Chromium");
  process.exit(1);
}
const { loadPyodide } = await import(pathToFileURL(runtime + "/pyodide.mjs").href);

function mountPack(pyodide) {
  const home = pyodide.FS.cwd();
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: pack }, home);
  pyodide.runPython(`import sys; sys.path.insert(0, "__pypackages__")`);
}

// What cannot be in a snapshot: a shared library's modules, JavaScript's, Pyodide's own.
const UNSNAPSHOTTABLE = `
import importlib.machinery
def unsnapshottable(name, spec):
    return (
        spec is None  # made by a shared library as it loads (Cython's)
        or isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)
        or name.split(".")[0] in ("js", "pyodide_js", "flet_js", "pyodide", "_pyodide", "_pyodide_core")
    )
`;

const learner = await loadPyodide({ indexURL: runtime + "/" });
mountPack(learner);
const names = learner.runPython(UNSNAPSHOTTABLE + `
import builtins, importlib, importlib.util, sys
imports = {}  # module -> the modules its import statements name
real_import = builtins.__import__
def noting(name, globals=None, locals=None, fromlist=(), level=0):
    module = real_import(name, globals, locals, fromlist, level)
    importer = (globals or {}).get("__name__")
    if importer:
        try:
            target = importlib.util.resolve_name("." * level + name, globals.get("__package__")) if level else name
        except (ImportError, ValueError):
            target = name
        named = imports.setdefault(importer, set())
        named.add(target)
        for item in fromlist or ():
            if f"{target}.{item}" in sys.modules:
                named.add(f"{target}.{item}")
    return module
before = list(sys.modules)
builtins.__import__ = noting
importlib.import_module("scorer.web.main")
import flet, types
def named(code):
    yield from code.co_names
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from named(constant)
lazy = set(dir(flet)) - set(vars(flet))  # imported on first use
used = set()
for name, module in list(sys.modules.items()):
    spec = getattr(module, "__spec__", None)
    if name.split(".")[0] == "scorer" and spec is not None and hasattr(spec.loader, "get_code"):
        code = spec.loader.get_code(name)
        if code is not None:
            used.update(n for n in named(code) if n in lazy)
for name in sorted(used):
    getattr(flet, name)
first_screen = set(sys.modules)
# What opening the store imports, behind the first screen: imported here so that the standard
# library's modules it needs are compiled below, but not held in the snapshot (with them it
# was 1 MB larger on the way, and a first visit over 30 MB).
for later in sys.modules["scorer.web.startup"].BEHIND_FIRST_SCREEN:
    importlib.import_module(later)
builtins.__import__ = real_import
new = [name for name in sys.modules if name not in before and name in first_screen]
left_out = {name for name in new if unsnapshottable(name, getattr(sys.modules[name], "__spec__", None))}
changed = True
while changed:  # whatever imports a module left out, or is inside a package left out
    changed = False
    for name in new:
        if name in left_out:
            continue
        parent = name.rpartition(".")[0]
        if parent in left_out or any(t in left_out or t.split(".")[0] in left_out for t in imports.get(name, ())):
            left_out.add(name)
            changed = True
wanted = [name for name in new if name not in left_out and not name.startswith("scorer.web.main")]
"\\n".join(wanted)
`).split("\n").filter(Boolean);

learner.FS.mkdirTree("/runtime");
learner.FS.mount(learner.FS.filesystems.NODEFS, { root: runtime }, "/runtime");
const compiled = learner.runPython(`
import importlib._bootstrap_external as external, importlib.util, os, runpy, traceback, zipfile
from pyodide.http import pyfetch  # Flet's worker imports these before the app
STDLIB = "/lib/python" + "".join(map(str, sys.version_info[:2])) + ".zip/"
used = {
    origin.removeprefix(STDLIB)
    for module in list(sys.modules.values())
    if (origin := getattr(getattr(module, "__spec__", None), "origin", None) or "").startswith(STDLIB)
    and origin.endswith(".py")
}
with zipfile.ZipFile("/runtime/python_stdlib.zip") as source:
    entries = [(entry, source.read(entry)) for entry in source.infolist()]
with zipfile.ZipFile("/runtime/python_stdlib.zip.partial", "w", compression=zipfile.ZIP_STORED) as target:
    for entry, data in entries:
        if entry.filename in used:
            code = compile(data, STDLIB + entry.filename, "exec", dont_inherit=True)
            data = bytes(external._code_to_hash_pyc(code, importlib.util.source_hash(data), False))
            entry.filename += "c"
        entry.compress_type = zipfile.ZIP_STORED
        target.writestr(entry, data)
os.replace("/runtime/python_stdlib.zip.partial", "/runtime/python_stdlib.zip")  # whole, or as it was
len(used)
`);
learner.FS.unmount("/runtime");

const maker = await loadPyodide({ indexURL: runtime + "/", _makeSnapshot: true });
mountPack(maker);
maker.globals.set("wanted", maker.toPy(names));
const report = maker.runPython(UNSNAPSHOTTABLE + `
import gc, importlib, json, sys
asked = []
class Refuse:
    @staticmethod
    def find_spec(name, path=None, target=None):
        for finder in sys.meta_path:
            if finder is Refuse or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if unsnapshottable(name, spec):
            asked.append(name)
            raise ImportError(f"{name} cannot be in a memory snapshot")
        return spec
sys.meta_path.insert(0, Refuse)
failed = {}
for name in wanted:
    before = len(asked)
    try:
        importlib.import_module(name)
    except Exception as error:
        failed[name] = repr(error)
    if len(asked) > before and name not in failed:
        failed[name] = "went on without " + ", ".join(asked[before:])
sys.meta_path.remove(Refuse)
# The app's texts are read once per process, at their first use (scorer.ui.i18n.catalog: every
# catalog's TOML parsed, on the way to the first screen); read here, the snapshot holds them.
if "scorer.ui.i18n" in sys.modules:
    sys.modules["scorer.ui.i18n"].catalog()
gc.collect()  # what the imports left behind is not kept
sys.path.remove("__pypackages__")  # Flet's worker puts it back
sys.path_importer_cache.clear()
importlib.invalidate_caches()
report = json.dumps({"wanted": len(wanted), "failed": failed})
del Refuse, asked, failed, unsnapshottable, name, before, gc
report
`);
maker.globals.delete("wanted");
const result = JSON.parse(report);
if (Object.keys(result.failed).length) {
  console.error("modules that cannot be in the snapshot as learned: " + JSON.stringify(result.failed));
  process.exit(1);
}
const snapshot = maker.makeMemorySnapshot();
writeFileSync(out, snapshot);
console.log(JSON.stringify({ modules: names.length, bytes: snapshot.length, compiled }));
