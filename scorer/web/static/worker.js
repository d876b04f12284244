// Rummy Scorer: Flet's worker below starts the runtime through rummyLoadPyodide (patched in by
// scorer/web/build.py), which restores the build's memory snapshot of the started runtime
// (pyodide/snapshot.bin.gz, made by static/snapshot.mjs) instead of starting CPython from
// scratch: that start is most of a phone's wait. With no snapshot, one this runtime refuses
// (another build's), or a browser that cannot suspend WebAssembly for a promise (JSPI: the
// snapshot was made where it can, and the runtime notes that once, at its start), Python starts
// as Flet starts it.
self.rummyLoadPyodide = async function (loadPyodide, options) {
  var started = performance.now();
  try {
    if (!("Suspending" in WebAssembly)) {
      throw new Error("this browser has no JSPI");
    }
    var url = new URL("snapshot.bin.gz", new URL(self.pyodideUrl, self.location.href));
    var response = await fetch(url);
    if (!response.ok) {
      throw new Error("HTTP " + response.status + " for " + url);
    }
    var bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      // Unless the host already took the gzip off (Content-Encoding).
      var inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      bytes = new Uint8Array(await new Response(inflated).arrayBuffer());
    }
    var pyodide = await loadPyodide(Object.assign({}, options, { _loadSnapshot: bytes }));
    console.log("Rummy Scorer: Python restored from the build's snapshot in " +
      Math.round(performance.now() - started) + " ms");
    return pyodide;
  } catch (error) {
    console.warn("Rummy Scorer: Python starts from scratch (no snapshot: " + error + ")");
  }
  return loadPyodide(options);
};
