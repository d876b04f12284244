// Rummy Scorer's additions to Flet's page (scorer/web/build.py puts this in index.html, and
// the catalogs' texts below).
//
// On a first visit the service worker (sw.js) is put in charge of the page before anything
// else loads, so every file the page fetches is downloaded once and kept for offline use as
// it arrives; after the first screen it fetches what is still missing, file by file, and the
// page says whether the app is ready to work offline (and which files could not be kept).
// Python starts as soon as the page may fetch, beside the Flutter client (this script adds
// Flutter's bootstrap script once the service worker is in charge). Once Python runs, the
// browser is asked to keep its storage (the league lives in IndexedDB).
//
// While Python starts, the page shows what the browser already holds of the league: the
// summary record the store writes with every change (scorer/web/browser_store.py: the
// leagues' names and the games in progress, made by the store's own reads), read straight
// from IndexedDB and shown under the app's bar, names only and nothing to tap, until Python
// sends the first screen.
(function () {
  "use strict";
  var TEXTS = __TEXTS__;
  // The language the player chose in Settings (Flutter's SharedPreferences keep it in
  // localStorage), else the browser's: as the app itself decides.
  var LANGUAGE_KEY = "flutter.rummy-scorer.language";
  var sw = "serviceWorker" in navigator ? navigator.serviceWorker : null;
  var done = false;

  function language() {
    try {
      var kept = JSON.parse(localStorage.getItem(LANGUAGE_KEY) || "null");
      if (typeof kept === "string" && TEXTS[kept]) {
        return kept;
      }
    } catch (error) { /* no storage: the browser's language */ }
    var tag = String(navigator.language || "en").toLowerCase().split(/[-_]/)[0];
    return TEXTS[tag] ? tag : "en";
  }

  function text(key, values) {
    var words = (TEXTS[language()] || TEXTS.en)[key] || TEXTS.en[key];
    return words.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && name in values ? String(values[name]) : whole;
    });
  }

  // -- the league while Python starts -------------------------------------------------------
  var SUMMARY_DB = "rummy-scorer", SUMMARY_VERSION = 1;
  var seen = window.rummySummary = { shown: false, at: null, text: "", readyAt: null };
  var summaryBox = null;

  function readSummary() {
    return new Promise(function (resolve) {
      var request;
      try {
        request = indexedDB.open(SUMMARY_DB);
      } catch (error) {
        resolve(null);
        return;
      }
      // No database yet (a first visit): make none, the app makes it.
      request.onupgradeneeded = function () { request.transaction.abort(); };
      request.onerror = function (event) { event.preventDefault(); resolve(null); };
      request.onsuccess = function () {
        var db = request.result;
        if (!db.objectStoreNames.contains("meta")) {
          db.close();
          resolve(null);
          return;
        }
        var get = db.transaction("meta").objectStore("meta").get("summary");
        get.onsuccess = function () { db.close(); resolve(get.result || null); };
        get.onerror = function () { db.close(); resolve(null); };
      };
    });
  }

  function line(tag, words, style) {
    var element = document.createElement(tag);
    element.textContent = words;  // names typed by players: text, never markup
    element.style.cssText = style;
    return element;
  }

  function showSummary(record) {
    if (!record || record.v !== SUMMARY_VERSION || seen.readyAt !== null) {
      return;
    }
    if (!document.body) {
      document.addEventListener("DOMContentLoaded", function () { showSummary(record); }, { once: true });
      return;
    }
    var dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
    var lang = language();
    summaryBox = document.createElement("div");
    summaryBox.id = "rummy-summary";
    summaryBox.style.cssText = "position:fixed;left:16px;right:16px;top:72px;z-index:9999;" +
      "pointer-events:none;font:16px/1.35 system-ui,sans-serif;color:" + (dark ? "#e2e3dd" : "#1b1c19");
    (record.leagues || []).forEach(function (name) {
      summaryBox.appendChild(line("div", name, "font-weight:bold;font-size:18px;margin:4px 0 8px"));
    });
    (record.games || []).forEach(function (game) {
      var card = document.createElement("div");
      card.className = "rummy-summary-game";
      card.style.cssText = "padding:8px 12px;margin:0 0 8px;border-radius:12px;background:" +
        (dark ? "#2b2d29" : "#eef2e9");
      var variant = (game.variant && (game.variant[lang] || game.variant.en)) || game.ruleset;
      card.appendChild(line("div", variant, "font-weight:bold"));
      var totals = (game.totals || []).map(function (pair) { return pair[0] + ": " + pair[1]; });
      card.appendChild(line("div", totals.join(", "), ""));
      summaryBox.appendChild(card);
    });
    if (record.more > 0) {
      summaryBox.appendChild(line("div", "+ " + record.more, "padding:0 12px"));
    }
    document.body.appendChild(summaryBox);
    seen.shown = true;
    seen.at = performance.now();
    seen.text = summaryBox.innerText || summaryBox.textContent;
    console.log("Rummy Scorer: the league shown while Python starts (" + (record.games || []).length +
      " games in progress)");
  }

  // Python's first message to the client: its first screen is on its way.
  function pythonSpoke() {
    if (seen.readyAt !== null) {
      return;
    }
    seen.readyAt = performance.now();
    if (summaryBox) {
      var box = summaryBox;
      summaryBox = null;
      setTimeout(function () { box.remove(); }, 300);  // the first frame drawn beneath it
    }
  }

  if (window.indexedDB) {
    readSummary().then(showSummary, function () {});
  }

  // -- what the page says about offline use -------------------------------------------------
  var offline = window.rummyOffline = { ready: false, state: null, said: null };
  var banner = null, hideTimer = null;

  function say(kind, message) {
    if (!document.body) {
      document.addEventListener("DOMContentLoaded", function () { say(kind, message); }, { once: true });
      return;
    }
    if (!banner) {
      banner = document.createElement("div");
      banner.id = "rummy-offline";
      banner.setAttribute("role", "status");
      banner.setAttribute("aria-live", "polite");
      // Over the app's foot, letting taps through to it except on its own Close button.
      banner.style.cssText = "position:fixed;left:8px;right:8px;bottom:8px;z-index:10000;" +
        "display:flex;align-items:center;gap:8px;padding:8px 12px;border-radius:8px;" +
        "font:14px/1.35 system-ui,sans-serif;color:#fff;pointer-events:none;" +
        "box-shadow:0 2px 6px rgba(0,0,0,.3)";
      var words = document.createElement("span");
      words.style.flex = "1";
      var close = document.createElement("button");
      close.type = "button";
      close.style.cssText = "pointer-events:auto;font:inherit;color:#fff;background:transparent;" +
        "border:1px solid rgba(255,255,255,.6);border-radius:6px;padding:4px 10px;min-height:32px";
      close.addEventListener("click", function () { banner.style.display = "none"; });
      banner.appendChild(words);
      banner.appendChild(close);
      document.body.appendChild(banner);
    }
    clearTimeout(hideTimer);
    banner.firstChild.textContent = message;
    banner.lastChild.textContent = text("web.offline_close");
    banner.dataset.kind = kind;
    banner.style.background = kind === "ready" ? "#2E7D32" : "#37474F";
    banner.style.display = "flex";
    offline.said = kind;
    if (kind === "ready") {
      hideTimer = setTimeout(function () { banner.style.display = "none"; }, 4000);
    }
  }

  function heard(state) {
    offline.state = state;
    offline.ready = state.ready === true;
    if (offline.ready) {
      if (offline.said && offline.said !== "ready") {
        say("ready", text("web.offline_ready"));
      }
      if (!state.later) {
        console.log("Rummy Scorer: ready to work offline (" + state.total + " files kept)");
      } else if (state.later.failed.length) {  // the QR decoder: kept when a scan fetches it
        console.warn("Rummy Scorer: not kept for later: " + state.later.failed.map(function (f) { return f.path; }).join(", "));
      } else {
        console.log("Rummy Scorer: the QR decoder kept for offline use (" + state.later.total + " files)");
      }
    } else if (state.finished && state.failed.length) {
      var names = state.failed.map(function (f) { return f.path + " (" + f.reason + ")"; });
      say("failed", text("web.offline_failed", { count: state.failed.length, files: names.join(", ") }));
      console.warn("Rummy Scorer: not ready to work offline: " + names.join(", "));
    } else if (!state.finished) {
      say("saving", text("web.offline_saving", { done: state.done, total: state.total }));
    }
  }

  if (sw) {
    sw.addEventListener("message", function (event) {
      if (event.data && event.data.type === "rummy-offline") {
        heard(event.data.state);
      }
    });
  }

  // The page's first fetches wait for the service worker only on a first visit (after it,
  // the worker is in charge from the page's first request), and never more than a few seconds.
  function inCharge() {
    if (!sw) {
      return Promise.resolve(false);
    }
    if (sw.controller) {
      sw.register("sw.js").catch(function (error) { console.warn("Rummy Scorer: service worker:", error); });
      return Promise.resolve(true);
    }
    return new Promise(function (resolve) {
      var timer = setTimeout(function () { resolve(false); }, 5000);
      sw.addEventListener("controllerchange", function () { clearTimeout(timer); resolve(true); }, { once: true });
      sw.register("sw.js")
        .then(function () { console.log("Rummy Scorer: service worker registered"); })
        .catch(function (error) {
          console.warn("Rummy Scorer: no offline cache:", error);
          clearTimeout(timer);
          resolve(false);
        });
    });
  }

  // Which build of the Flutter client flutter.js loaded (the service worker keeps its files),
  // told by its renderer's WebAssembly; the names are scorer/web/offline.py's CLIENTS: the
  // WebAssembly client with skwasm (or skwasm_heavy), or the JavaScript one with CanvasKit's
  // build for Chromium or its full build; null if the page cannot tell.
  function flutterClient() {
    var names = performance.getEntriesByType("resource").map(function (e) { return e.name; });
    var loaded = function (pattern) { return names.some(function (n) { return pattern.test(n); }); };
    if (loaded(/canvaskit\/skwasm_heavy\.wasm$/)) {
      return "skwasm_heavy";
    }
    if (loaded(/canvaskit\/skwasm\.wasm$/)) {
      return "skwasm";
    }
    if (loaded(/canvaskit\/chromium\/canvaskit\.wasm$/)) {
      return "chromium";
    }
    return loaded(/canvaskit\/canvaskit\.wasm$/) ? "full" : null;
  }

  // After the first screen: the service worker keeps whatever this browser still lacks.
  function completeCache() {
    if (!sw) {
      say("unsupported", text("web.offline_unsupported"));
      return;
    }
    sw.getRegistration().then(function (registration) {
      var worker = sw.controller || (registration && (registration.active || registration.installing));
      if (!worker) {
        say("unsupported", text("web.offline_unsupported"));
        return;
      }
      worker.postMessage({
        type: "rummy-complete",
        jspi: typeof WebAssembly === "object" && "Suspending" in WebAssembly,
        client: flutterClient()
      });
    });
  }

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

  function afterStart() {
    if (done) {
      return;
    }
    done = true;
    askPersistence();
    completeCache();
  }

  // Start Python at once, beside the Flutter client, rather than when the client asks for
  // it: its worker gets the init message python.js would post (Flet gives a published app
  // no arguments), and jsConnect below hands that worker to python.js.
  var started = null;

  function startPython() {
    if (!(globalThis.flet && flet.pyodide && typeof Worker === "function")) {
      return;
    }
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
    started = { worker: worker, held: held };
    console.log("Rummy Scorer: Python starting");
  }

  function startFlutter() {
    if (!document.body) {  // the client draws into the page's body
      document.addEventListener("DOMContentLoaded", startFlutter, { once: true });
      return;
    }
    var script = document.createElement("script");
    script.src = "flutter_bootstrap.js";
    script.async = true;
    document.body.appendChild(script);
  }

  function adopt() {
    // python.js makes its worker and posts the init message in jsConnect's first, synchronous
    // part: give it the running worker instead, and drop that second init message.
    var adopted = started, Original = globalThis.Worker, post = adopted.worker.postMessage;
    started = null;
    globalThis.Worker = function () { globalThis.Worker = Original; return adopted.worker; };
    adopted.worker.postMessage = function () { adopted.worker.postMessage = post; };
    return adopted;
  }

  var connect = globalThis.jsConnect;
  if (typeof connect === "function") {
    globalThis.jsConnect = async function (appId, args, dartOnMessage) {
      var adopted = null;
      if (started && args && Object.keys(args).length === 0) {
        adopted = adopt();
      } else if (started) {
        started.worker.terminate();
        started = null;
      }
      var onMessage = function (message) {
        pythonSpoke();
        return dartOnMessage(message);
      };
      try {
        var connecting = connect.call(this, appId, args, onMessage);
        if (adopted) {
          // What the worker said before python.js listened (its "initialized"), in order.
          adopted.held.forEach(function (event) { adopted.worker.onmessage(event); });
        }
        return await connecting;
      } finally {
        setTimeout(afterStart, 0);
      }
    };
  }

  // -- files opened with the installed app (the manifest's file_handlers) --------------------
  // Chromium hands an installed app the files a player opened with it (a share file from
  // Bluetooth or Nearby Share, "Open with Rummy Scorer") through launchQueue. Python runs in a
  // worker, which has no launchQueue: each file is kept in IndexedDB (LAUNCH_DB) and the worker
  // told on a BroadcastChannel; Python takes them and shows what they add before anything is
  // merged (scorer/web/launched.py). window.rummyOpenFiles takes File objects the same way.
  var LAUNCH_DB = "rummy-scorer-launched", LAUNCH_STORE = "files", LAUNCH_CHANNEL = "rummy-scorer-launched";

  function keepOpened(files) {
    var reading = Array.prototype.map.call(files, function (given) {
      var file = typeof given.getFile === "function" ? given.getFile() : Promise.resolve(given);
      return file.then(function (f) {
        return f.text().then(function (text) { return { name: f.name, text: text }; });
      });
    });
    return Promise.all(reading).then(function (read) {
      return new Promise(function (resolve, reject) {
        var request = indexedDB.open(LAUNCH_DB, 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(LAUNCH_STORE, { autoIncrement: true });
        };
        request.onerror = function () { reject(request.error); };
        request.onsuccess = function () {
          var db = request.result, tx = db.transaction(LAUNCH_STORE, "readwrite");
          read.forEach(function (record) { tx.objectStore(LAUNCH_STORE).add(record); });
          tx.oncomplete = function () {
            db.close();
            new BroadcastChannel(LAUNCH_CHANNEL).postMessage(read.length);
            resolve(read.length);
          };
          tx.onabort = function () { db.close(); reject(tx.error); };
        };
      });
    });
  }
  window.rummyOpenFiles = keepOpened;
  if ("launchQueue" in window) {
    window.launchQueue.setConsumer(function (params) {
      if (params.files && params.files.length) {
        keepOpened(params.files).catch(function (error) { console.warn("Rummy Scorer: an opened file", error); });
      }
    });
  }

  inCharge().then(function () {
    startPython();
    startFlutter();
  });
  // Should Python never start, what this browser needs is still kept for the next visit.
  window.addEventListener("load", function () { setTimeout(afterStart, 60000); });
})();
