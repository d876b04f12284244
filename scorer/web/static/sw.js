// Rummy Scorer's service worker (written by scorer/web/build.py): the whole build is cached
// when it installs, and every request of this site is answered from that cache first, so the
// app opens with no network after the first visit. A new build has a new version: its worker
// caches the new files, then removes the old cache.
"use strict";

const VERSION = "__VERSION__";
const PREFIX = "rummy-scorer-";
const CACHE = PREFIX + VERSION;
const FILES = __FILES__;
const PAGE = new URL("./", self.location).href;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith(PREFIX) && key !== CACHE) {
        await caches.delete(key);
      }
    }
    await self.clients.claim();
  })());
});

async function answer(request) {
  const cache = await caches.open(CACHE);
  // Routes live in the fragment (#/game/...), so every page is the one index.html.
  const key = request.mode === "navigate" ? PAGE : request;
  const hit = await cache.match(key, { ignoreSearch: true });
  if (hit) {
    return hit;
  }
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    await cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) {
    return;
  }
  event.respondWith(answer(request));
});
