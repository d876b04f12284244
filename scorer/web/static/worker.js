// Rummy Scorer: Flet's worker below starts the runtime through rummyLoadPyodide (patched in by
// scorer/web/build.py), which starts it from the build's memory snapshot of the started runtime
// (pyodide/memory-snapshot.bin, made by static/memory_snapshot.mjs) instead of starting CPython from
// scratch: that start is most of a phone's wait. With no snapshot, one this runtime refuses
// (another build's), or a browser that cannot suspend WebAssembly for a promise (JSPI: the
// snapshot was made where it can, and the runtime notes that once, at its start), Python starts
// as Flet starts it.
//
// The snapshot is read beside the runtime's own start (loadPyodide takes it as a promise and
// waits for it only where it needs the memory), and so is the app archive; once the runtime is
// there the archive is unpacked here (its files are stored, not deflated: the host or the
// service worker compresses them on the way). It holds msgpack, which Flet's worker imports,
// so no package is loaded from the runtime's folder; Flet's worker then skips its own download
// and unpacking of the archive (the build patches that test too). Should any of that fail,
// Flet's worker fetches and unpacks the archive itself, and loads msgpack, as before.
async function rummyMemorySnapshot() {
  if (!("Suspending" in WebAssembly)) {
    throw new Error("this browser has no JSPI");
  }
  var url = new URL("memory-snapshot.bin", new URL(self.pyodideUrl, self.location.href));
  var response = await fetch(url);
  if (!response.ok) {
    throw new Error("HTTP " + response.status + " for " + url);
  }
  // The service worker keeps it inflated (it travels as the .gz beside it).
  return new Uint8Array(await response.arrayBuffer());
}

async function rummyArchive() {
  var url = new URL(self.appPackageUrl, self.location.href);
  var response = await fetch(url);
  if (!response.ok) {
    throw new Error("HTTP " + response.status + " for " + url);
  }
  return new Uint8Array(await response.arrayBuffer());
}

// The zip's files into the runtime's working folder, where Flet's worker would unpack it.
async function rummyUnzip(pyodide, bytes) {
  var view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  var end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) {
    end--;
  }
  if (end < 0) {
    throw new Error("the app archive is not a zip");
  }
  var count = view.getUint16(end + 10, true);
  var at = view.getUint32(end + 16, true);
  var names = new TextDecoder();
  var home = pyodide.FS.cwd().replace(/\/$/, "");
  var made = new Set();
  for (var i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) {
      throw new Error("the app archive's directory is damaged");
    }
    var method = view.getUint16(at + 10, true);
    var packed = view.getUint32(at + 20, true);
    var nameLength = view.getUint16(at + 28, true);
    var skip = nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    var local = view.getUint32(at + 42, true);
    var name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + skip;
    if (name.endsWith("/")) {
      continue;
    }
    var start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    var data = bytes.subarray(start, start + packed);
    if (method === 8) {
      var inflated = new Blob([data]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
      data = new Uint8Array(await new Response(inflated).arrayBuffer());
    } else if (method !== 0) {
      throw new Error("the app archive uses compression " + method);
    }
    var path = home + "/" + name;
    var folder = path.slice(0, path.lastIndexOf("/"));
    if (!made.has(folder)) {
      pyodide.FS.mkdirTree(folder);
      made.add(folder);
    }
    pyodide.FS.writeFile(path, data, { canOwn: true });
  }
  return count;
}

self.rummyLoadPyodide = async function (loadPyodide, options) {
  var started = performance.now();
  var archive = rummyArchive();  // fetched beside the runtime's start
  archive.catch(function () {});
  var pyodide = null;
  try {
    pyodide = await loadPyodide(Object.assign({}, options, { _loadSnapshot: rummyMemorySnapshot() }));
    console.log("Rummy Scorer: Python started from the build's memory snapshot in " +
      Math.round(performance.now() - started) + " ms");
  } catch (error) {
    console.warn("Rummy Scorer: Python starts from scratch (no memory snapshot: " + error + ")");
  }
  if (pyodide === null) {
    pyodide = await loadPyodide(options);
  }
  try {
    var files = await rummyUnzip(pyodide, await archive);
    self.flet_js.rummyArchiveInPlace = true;
    console.log("Rummy Scorer: app archive in place (" + files + " files) " +
      Math.round(performance.now() - started) + " ms after the worker's start");
  } catch (error) {
    console.warn("Rummy Scorer: the app archive is left to Flet's worker (" + error + ")");
  }
  return pyodide;
};

// The QR decoder (zxing-wasm's reader, in the build's zxing-wasm/ folder): imported at the first
// scan, not at the start, and its WebAssembly fetched from the build (never from its CDN). Python
// calls rummyDecodeQr (scorer/ui/decoder.py) with an encoded picture (PNG, JPEG ...): the
// payload of every QR code in it, each a Uint8Array; none for a picture it cannot read.
var rummyZxing = null;

function rummyDecoder() {
  if (rummyZxing === null) {
    var base = new URL("zxing-wasm/", self.location.href);
    rummyZxing = import(new URL("es/reader/index.js", base).href).then(function (zxing) {
      return zxing.prepareZXingModule({
        overrides: {
          locateFile: function (path, prefix) {
            return path.endsWith(".wasm") ? new URL("reader/" + path, base).href : prefix + path;
          }
        },
        fireImmediately: true
      }).then(function () { return zxing; }, function (error) {
        zxing.purgeZXingModule();  // it keeps a failed start: the next scan starts it afresh
        throw error;
      });
    });
    rummyZxing.catch(function () { rummyZxing = null; });  // offline before it was kept: asked again
  }
  return rummyZxing;
}

self.rummyDecodeQr = async function (bytes) {
  var zxing = await rummyDecoder();
  var found = await zxing.readBarcodes(bytes, { formats: ["QRCode"], maxNumberOfSymbols: 255 });
  return found
    .filter(function (code) { return code.isValid && code.format === "QRCode" && code.bytes; })
    .map(function (code) { return code.bytes; });
};
