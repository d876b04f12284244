// Rummy Scorer's additions to Flet's page (scorer/web/build.py puts this in index.html).
// Once the app's Python is running: ask the browser to keep its storage (the league lives in
// IndexedDB) and register the service worker that caches the build for offline use. Waiting
// for Python keeps the first visit's downloads from competing with the cache's own.
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

  function started() {
    if (done) {
      return;
    }
    done = true;
    askPersistence();
    registerWorker();
  }

  var connect = globalThis.jsConnect;
  if (typeof connect === "function") {
    globalThis.jsConnect = async function () {
      try {
        return await connect.apply(this, arguments);
      } finally {
        setTimeout(started, 0);
      }
    };
  }
  // Should Python never start, the build is still cached for the next visit.
  window.addEventListener("load", function () { setTimeout(started, 60000); });
})();
