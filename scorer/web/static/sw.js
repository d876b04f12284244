// Rummy Scorer's service worker (written by scorer/web/build.py, which fills in BUILD).
//
// One download: the page waits for this worker on a first visit (boot.js), so every file it
// fetches comes through here, is downloaded once (gzipped where the build has a .gz beside
// it: inflated here, or as the host sent it where the host compresses it itself) and kept in
// this build's cache; after the first screen the page asks for the rest this browser needs
// offline (complete()), fetched file by file, four at a time, each with its own time limit and
// retries, so one file that cannot be fetched never holds up the others: the page is told how
// far it got and which files failed, and asks again at its next start. Every request of the
// build is answered from the cache first.
//
// A new build has a new version: its worker carries over the files that did not change from
// the old cache and fetches the others while the old build's worker still answers the open
// pages from the old cache; the old cache goes only once the new worker is in charge (and its
// cache complete). A worker whose cache is gone has been replaced: it stores nothing more, and
// answers a request still in its hands from the newer build's cache where the file is the same.
"use strict";

const VERSION = "__VERSION__";
const PREFIX = "rummy-scorer-";
const CACHE = PREFIX + VERSION;
// files: {path: [bytes, content hash, bytes of its .gz or 0]}; precache: what every browser
// needs offline; clients: the files of each build of the Flutter client (a browser loads one:
// the WebAssembly client with skwasm in Chromium, the JavaScript one with CanvasKit in the
// others; scorer/web/offline.py's CLIENTS); jspi: what
// only a browser that can suspend WebAssembly uses (the runtime's memory snapshot); later: kept
// once all that is kept (the QR decoder: a first visit does not wait for it).
const BUILD = __BUILD__;
const BASE = new URL("./", self.location).href;
const BASE_PATH = new URL(BASE).pathname;
// The record of a complete cache: which build, for which browser, with which files.
const MARK = BASE + "__rummy_offline__.json";
const TYPES = {
  js: "text/javascript", mjs: "text/javascript", wasm: "application/wasm", json: "application/json",
  html: "text/html", ttf: "font/ttf", otf: "font/otf", woff2: "font/woff2", png: "image/png",
  zip: "application/zip", gz: "application/gzip", bin: "application/octet-stream", txt: "text/plain"
};

function pathOf(url) {
  if (url.origin !== self.location.origin || !url.pathname.startsWith(BASE_PATH)) {
    return null;
  }
  const path = decodeURIComponent(url.pathname.slice(BASE_PATH.length));
  return path === "" ? "index.html" : path;
}

function typeOf(path) {
  const dot = path.lastIndexOf(".");
  return TYPES[dot < 0 ? "txt" : path.slice(dot + 1)] || "application/octet-stream";
}

// Does the host compress this kind of file itself (Content-Encoding, as GitHub Pages, Netlify,
// Caddy and nginx can)? Asked once per file extension, with a HEAD request (no body), while
// this worker runs (not after 10 s: then the .gz): a promise of true or false.
const hostCompresses = new Map();

function compressedByHost(path) {
  const dot = path.lastIndexOf(".");
  const kind = dot < 0 ? "" : path.slice(dot + 1);
  if (!hostCompresses.has(kind)) {
    const signal = typeof AbortSignal.timeout === "function" ? AbortSignal.timeout(10000) : undefined;
    hostCompresses.set(kind, fetch(BASE + path, { method: "HEAD", signal, cache: "no-cache" })
      .then((head) => head.ok && /\b(gzip|br|zstd|deflate)\b/i.test(head.headers.get("Content-Encoding") || ""))
      .catch(() => false));
  }
  return hostCompresses.get(kind);
}

async function download(path, signal) {
  const entry = BUILD.files[path];
  // A host that compresses the file itself: its response is kept as it came (the same bytes on
  // the way as the .gz), and Chromium keeps compiled code only for a response it fetched (a
  // code cache for the client: no parsing of main.dart.js's 9.6 MB at every start).
  if (entry && entry[2] && (await compressedByHost(path))) {
    const response = await fetch(BASE + path, { signal, cache: "no-cache" });
    if (response.ok && response.headers.get("Content-Encoding")) {
      return response;
    }
    if (response.body) {
      response.body.cancel().catch(() => {});
    }
  }
  if (entry && entry[2] && typeof DecompressionStream === "function") {
    const packed = await fetch(BASE + path + ".gz", { signal, cache: "no-cache" });
    if (packed.ok) {
      const bytes = new Uint8Array(await packed.arrayBuffer());
      // Unless the host already took the gzip off (Content-Encoding).
      const body = bytes[0] === 0x1f && bytes[1] === 0x8b
        ? new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))
        : bytes;
      return new Response(body, { status: 200, headers: { "Content-Type": typeOf(path) } });
    }
  }
  const response = await fetch(BASE + path, { signal, cache: "no-cache" });
  if (!response.ok) {
    throw new Error("HTTP " + response.status);
  }
  return response;
}

// One download of a file at a time, however many ask for it. The first to ask gets the
// response as it arrives (the page compiles WebAssembly while it downloads) while a copy goes
// into the cache; the others get the cached copy once it is there.
const inflight = new Map();

// This build's cache, or null once a newer build removed it (never made again here: the
// install made it, so a missing one means this worker was replaced).
async function ownCache() {
  return (await caches.has(CACHE)) ? caches.open(CACHE) : null;
}

async function fetchOnce(path, signal) {
  const pending = inflight.get(path);
  if (pending) {
    await pending;
    return caches.match(BASE + path, { cacheName: CACHE });
  }
  let settle = null;
  const stored = new Promise((resolve, reject) => { settle = { resolve, reject }; });
  stored.catch(() => {});
  inflight.set(path, stored);
  stored.finally(() => inflight.delete(path)).catch(() => {});
  try {
    const response = await download(path, signal);
    const copy = response.clone();
    ownCache()
      .then((cache) => cache ? cache.put(BASE + path, copy) : copy.body && copy.body.cancel())
      .then(settle.resolve, settle.reject);
    return response;
  } catch (error) {
    settle.reject(error);
    throw error;
  }
}

// The file in the cache (for complete()): true once it is there.
async function keep(path, signal) {
  const response = await fetchOnce(path, signal);
  const pending = inflight.get(path);
  if (response && response.body && pending) {
    response.body.cancel().catch(() => {});  // the cache's copy reads on alone
    await pending;
  }
  return !!(await caches.match(BASE + path, { cacheName: CACHE }));
}

// The same file (by its content hash) in a newer build's complete cache: for a request this
// worker got just before a newer build took over and removed this build's cache.
async function fromNewer(path) {
  for (const key of await caches.keys()) {
    if (!key.startsWith(PREFIX) || key === CACHE) {
      continue;
    }
    const mark = await caches.match(MARK, { cacheName: key });
    const entry = mark && (await mark.json()).files[path];
    if (entry && entry[1] === BUILD.files[path][1]) {
      const hit = await caches.match(BASE + path, { cacheName: key });
      if (hit) {
        return hit;
      }
    }
  }
  return null;
}

async function answer(request) {
  const path = request.mode === "navigate" ? "index.html" : pathOf(new URL(request.url));
  if (path === null || !(path in BUILD.files)) {
    return fetch(request);
  }
  // caches.match with a cacheName never makes the cache: a replaced worker's stays gone.
  const hit = (await caches.match(BASE + path, { cacheName: CACHE })) || (await fromNewer(path));
  if (hit) {
    return hit;
  }
  try {
    const response = await fetchOnce(path);
    if (response) {
      return response;
    }
  } catch (error) {
    console.warn("Rummy Scorer: could not keep " + path + ": " + error);
  }
  try {
    return await fetch(request);
  } catch (error) {
    // Offline, with this build not yet complete: the previous build's copy, if there is one.
    const older = await caches.match(BASE + path);
    if (older) {
      return older;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  if (event.request.method === "GET") {
    event.respondWith(answer(event.request));
  }
});

// -- keeping what this browser needs offline ------------------------------------------------

// The client the page said it loaded; where it could not say (or an earlier build's page or
// record named a CanvasKit variant: its browser may load the WebAssembly client now), every
// client's files, so that the app opens offline whichever one this browser picks.
function wanted(options) {
  const client = Object.hasOwn(BUILD.clients, options.client || "")
    ? BUILD.clients[options.client]
    : [...new Set(Object.values(BUILD.clients).flat())];
  return [...BUILD.precache, ...client, ...(options.jspi ? BUILD.jspi : [])];
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function keepWithRetries(path) {
  let last = null;
  for (const pause of [0, 1000, 4000]) {
    await sleep(pause);
    const controller = new AbortController();
    // Enough for the file at a slow phone connection (about 50 kB/s), and a little more.
    const limit = 30000 + (BUILD.files[path][2] || BUILD.files[path][0]) / 50;
    const timer = setTimeout(() => controller.abort(new Error("no answer in " + Math.round(limit / 1000) + " s")), limit);
    try {
      if (await keep(path, controller.signal)) {
        return;
      }
      last = new Error("not kept");
    } catch (error) {
      last = error;
    } finally {
      clearTimeout(timer);
    }
  }
  throw last;
}

async function tell(state) {
  const pages = await self.clients.matchAll({ includeUncontrolled: true, type: "window" });
  for (const page of pages) {
    page.postMessage({ type: "rummy-offline", state });
  }
}

// Is this worker the one in charge, with no newer build on its way? Only then may it remove
// the other builds' caches: never while it installs (the old build's worker still answers the
// open pages from the old cache), nor while a newer build installs or waits (that cache is the
// newer one), nor once replaced (its own cache is gone).
async function inCharge() {
  const registration = self.registration;
  const me = self.serviceWorker;  // this worker, where the browser says (not every one does)
  return !registration.installing && !registration.waiting && (!me || me.state === "activating" || me.state === "activated") &&
    (await caches.has(CACHE));
}

async function removeOlder() {
  if (!(await inCharge())) {
    return;
  }
  for (const key of await caches.keys()) {
    if (key.startsWith(PREFIX) && key !== CACHE) {
      await caches.delete(key);
    }
  }
}

async function complete(options) {
  const cache = await ownCache();
  if (!cache) {
    return null;  // replaced: the newer build's worker keeps what the pages need
  }
  const list = wanted(options);
  const queue = list.slice();
  const failed = [];
  let done = 0, told = 0;
  const state = (finished) => ({
    version: VERSION, finished, ready: finished && failed.length === 0, done, total: list.length, failed
  });
  async function fetcher() {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (!(await cache.match(BASE + path))) {
        try {
          await keepWithRetries(path);
        } catch (error) {
          failed.push({ path, reason: String(error && error.message || error) });
          continue;
        }
      }
      done += 1;
      if (Date.now() - told > 500) {
        told = Date.now();
        await tell(state(false));
      }
    }
  }
  await Promise.all([fetcher(), fetcher(), fetcher(), fetcher()]);
  const result = state(true);
  if (result.ready) {
    const mark = { version: VERSION, options, files: BUILD.files, total: list.length };
    await cache.put(MARK, new Response(JSON.stringify(mark), { headers: { "Content-Type": "application/json" } }));
    await removeOlder();
  }
  await tell(result);
  if (result.ready) {
    result.later = await keepLater(cache);  // then said again, with what was kept for later
    await tell(result);
  }
  return result;
}

// What only a scan needs (the QR decoder), once the app is ready offline: so a phone that was
// online once can scan offline. A file that cannot be kept now is asked for at the next start
// (or fetched, and kept, when a scan asks for it).
async function keepLater(cache) {
  const list = BUILD.later || [];
  const failed = [];
  for (const path of list) {
    if (await cache.match(BASE + path)) {
      continue;
    }
    try {
      await keepWithRetries(path);
    } catch (error) {
      failed.push({ path, reason: String(error && error.message || error) });
    }
  }
  return { total: list.length, failed };
}

let completing = null;

function completeOnce(options) {
  if (!completing) {
    completing = complete(options).finally(() => { completing = null; });
  }
  return completing;
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "rummy-complete") {
    event.waitUntil(completeOnce({ client: data.client || null, jspi: !!data.jspi }));
  }
});

// -- a new build ------------------------------------------------------------------------------

async function previousBuild() {
  for (const key of (await caches.keys()).reverse()) {
    if (!key.startsWith(PREFIX) || key === CACHE) {
      continue;
    }
    const cache = await caches.open(key);
    const mark = await cache.match(MARK);
    if (mark) {
      return { cache, mark: await mark.json() };
    }
  }
  return null;
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await caches.open(CACHE);  // made here and never again: see ownCache
    const previous = await previousBuild();
    if (previous) {
      // An update: the files that did not change come from the old cache, the others from
      // the host, before this build takes over (the old one stays until this one is whole).
      const cache = await caches.open(CACHE);
      for (const [path, entry] of Object.entries(BUILD.files)) {
        const old = previous.mark.files[path];
        if (old && old[1] === entry[1]) {
          const copy = await previous.cache.match(BASE + path);
          if (copy) {
            await cache.put(BASE + path, copy);
          }
        }
      }
      await completeOnce(previous.mark.options);
      if (!(await caches.has(CACHE))) {
        throw new Error("this build's cache was removed while it installed");  // tried again later
      }
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    if (await cache.match(MARK)) {
      await removeOlder();
    }
    await self.clients.claim();
  })());
});
