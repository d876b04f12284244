// Rummy Scorer's additions to Flet's page (scorer/web/build.py puts this in index.html).
// Python starts as soon as the page does. Once it runs: ask the browser to keep its storage
// (the league lives in IndexedDB) and register the service worker that caches the build for
// offline use. Waiting for Python keeps the first visit's downloads from competing with the
// cache's own.
(function () {
  "use strict";
  var done = false;

  function askPersistence() {
    if (!(navigator.storage && navigator.storage.persist)) {
      return;
    }
    navigator.storage.persisted()
      .then(function (kept) { return kept || navigator.storage.persist(); })
      .then(function (kept) {
        window.rummyStoragePersisted = kept;
        console.log("Rummy Scorer: persistent storage " + (kept ? "granted" :
          "not granted (the browser may clear the games when space runs out; installing the app helps)"));
      })
      .catch(function (error) { console.warn("Rummy Scorer: persistent storage not asked:", error); });
  }

  function registerWorker() {
    if (!("serviceWorker" in navigator)) {
      return;
    }
    navigator.serviceWorker.register("sw.js")
      .then(function () { console.log("Rummy Scorer: service worker registered"); })
      .catch(function (error) { console.warn("Rummy Scorer: no offline cache:", error); });
  }

  function afterStart() {
    if (done) {
      return;
    }
    done = true;
    askPersistence();
    registerWorker();
  }

  // Start Python at once, while the Flutter client loads, rather than when the client asks
  // for it: its worker gets the init message python.js would post (Flet gives a published
  // app no arguments), and jsConnect below hands that worker to python.js.
  var early = null;
  if (globalThis.flet && flet.pyodide && typeof Worker === "function") {
    var base = flet.entrypointBaseUrl.replace(/\/$/, "");
    var worker = new Worker(base + "/python-worker.js", { type: "module" });
    var held = [];
    worker.onmessage = function (event) { held.push(event); };
    worker.postMessage({
      pyodideUrl: flet.pyodideUrl || "pyodide/pyodide.mjs",
      args: {},
      documentUrl: document.URL,
      appPackageUrl: flet.appPackageUrl,
      micropipIncludePre: flet.micropipIncludePre,
      pythonModuleName: flet.pythonModuleName
    });
    early = { worker: worker, held: held };
    console.log("Rummy Scorer: Python starting");
  }

  function adopt() {
    // python.js makes its worker and posts the init message in jsConnect's first, synchronous
    // part: give it the running worker instead, and drop that second init message.
    var started = early, Original = globalThis.Worker, post = started.worker.postMessage;
    early = null;
    globalThis.Worker = function () { globalThis.Worker = Original; return started.worker; };
    started.worker.postMessage = function () { started.worker.postMessage = post; };
    return started;
  }

  var connect = globalThis.jsConnect;
  if (typeof connect === "function") {
    globalThis.jsConnect = async function (appId, args) {
      var started = null;
      if (early && args && Object.keys(args).length === 0) {
        started = adopt();
      } else if (early) {
        early.worker.terminate();
        early = null;
      }
      try {
        var connecting = connect.apply(this, arguments);
        if (started) {
          // What the worker said before python.js listened (its "initialized"), in order.
          started.held.forEach(function (event) { started.worker.onmessage(event); });
        }
        return await connecting;
      } finally {
        setTimeout(afterStart, 0);
      }
    };
  }
  // Should Python never start, the build is still cached for the next visit.
  window.addEventListener("load", function () { setTimeout(afterStart, 60000); });
})();
