// The static web build's start in Firefox, by hand: bench/web.py measures Chromium only
// (Playwright drives Debian's Chromium; Firefox needs its own driver), so this is how
// docs/web.md's Firefox figures were taken. It drives Debian's Firefox ESR over WebDriver
// BiDi with puppeteer-core, which is not one of the project's packages:
//
//   apt-get install -y firefox-esr
//   npm install --prefix /tmp/firefox-bench puppeteer-core@24
//   (cd dist/web && python3 -m http.server 8765 --bind 127.0.0.1) &
//   NODE_PATH=/tmp/firefox-bench/node_modules node bench/web_firefox.mjs http://127.0.0.1:8765/
//
// One new profile: the first load, then (once the service worker has kept the build) two
// cached loads, each to Home's "New game" in the page's semantics tree, with the page's
// console lines and their times (the steps bench/web.py names). Asserts nothing.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const puppeteer = require("puppeteer-core");
const url = process.argv[2] || "http://127.0.0.1:8765/";
const firefox = process.env.RUMMY_FIREFOX || "/usr/bin/firefox-esr";

const browser = await puppeteer.launch({ browser: "firefox", executablePath: firefox, headless: true });
const page = await browser.newPage();
await page.setViewport({ width: 390, height: 844 });
let began = Date.now();
page.on("console", (message) => console.log(`  ${((Date.now() - began) / 1000).toFixed(2)} s  ${message.text().slice(0, 160)}`));
page.on("pageerror", (error) => console.log(`  page error: ${String(error).slice(0, 200)}`));

async function load(reload) {
  began = Date.now();
  if (reload) {
    await page.reload();
  } else {
    await page.goto(url);
  }
  for (let tries = 0; tries < 1200; tries++) {
    const shown = await page.evaluate(() => {
      document.querySelector("flt-semantics-placeholder")?.click();  // Flutter's semantics on
      return [...document.querySelectorAll("flt-semantics, [role=button]")].some(
        (node) => (node.textContent || node.getAttribute("aria-label") || "").includes("New game"));
    }).catch(() => false);
    if (shown) {
      return (Date.now() - began) / 1000;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("Home's New game did not show in 120 s");
}

const figures = { first: await load(false) };
await new Promise((resolve) => setTimeout(resolve, 8000));  // the service worker keeps the rest
figures.cached = [await load(true), await load(true)];
await browser.close();
console.log(`Firefox (${firefox}): first load ${figures.first.toFixed(1)} s, ` +
  `cached ${figures.cached.map((s) => s.toFixed(1) + " s").join(" and ")}`);
