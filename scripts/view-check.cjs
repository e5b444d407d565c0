// Drives the table view in headless Chromium (run by scripts/view-check.sh, which installs
// playwright-core and starts the server). Arguments: base URL, viewer token, encounter id,
// output directory, the name whose turn it is, the name whose turn comes next, a hidden name.
"use strict";

const { chromium } = require("playwright-core");
const path = require("path");

const [base, token, encounter, out, first, second, hidden] = process.argv.slice(2);
const WAIT_MS = 15000;

function fail(message) {
  console.error("view-check: " + message);
  process.exitCode = 1;
}

async function main() {
  const userDataDir = require("fs").mkdtempSync(path.join(require("os").tmpdir(), "view-check-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  try {
    const page = context.pages()[0] || (await context.newPage());
    const failed = [];
    page.on("requestfailed", (request) => {
      if (!request.url().endsWith("/stream")) failed.push(request.url());
    });
    page.on("console", (message) => {
      if (message.type() === "error") failed.push("console: " + message.text());
    });
    const response = await page.goto(base + "/view/" + token, { waitUntil: "load", timeout: WAIT_MS });
    if (response.status() !== 200) return fail("the page answered " + response.status());
    await page.waitForFunction(
      (name) => document.getElementById("current-name").textContent === name, first, { timeout: WAIT_MS });
    await page.waitForFunction(() => document.getElementById("connection").dataset.state === "live",
      null, { timeout: WAIT_MS });
    // Marks this document: a reload would lose it.
    await page.evaluate(() => { window.viewCheckSamePage = true; });
    await page.screenshot({ path: path.join(out, "table-view-before.png") });

    const advanced = await fetch(base + "/v1/encounters/" + encounter + "/advance", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ to: "next_turn" }),
    });
    if (advanced.status !== 200) return fail("advance answered " + advanced.status);
    await page.waitForFunction(
      (name) => document.getElementById("current-name").textContent === name, second, { timeout: WAIT_MS });
    await page.waitForFunction((name) => {
      const current = document.querySelector('#turn-order li[aria-current="true"] .name');
      return current !== null && current.textContent.startsWith(name);
    }, second, { timeout: WAIT_MS });
    await page.waitForFunction(
      (name) => document.getElementById("log").textContent.includes(name + "'s turn"), second,
      { timeout: WAIT_MS });

    const state = await page.evaluate(() => ({
      same: window.viewCheckSamePage === true,
      text: document.body.innerText,
      html: document.documentElement.outerHTML,
      marked: document.querySelectorAll('#turn-order li[aria-current="true"]').length,
      order: [...document.querySelectorAll("#turn-order li .name")].map((n) => n.firstChild.textContent),
    }));
    await page.screenshot({ path: path.join(out, "table-view.png") });
    if (!state.same) fail("the page reloaded instead of following the stream");
    if (state.marked !== 1) fail("expected one aria-current entry, found " + state.marked);
    if (state.html.includes(hidden)) fail("the hidden combatant " + hidden + " is on the page");
    if (state.html.includes(token)) fail("the token is in the page's markup");
    if (failed.length) fail("failed requests or console errors: " + failed.join(", "));
    console.log("view-check: turn order " + state.order.join(" > ") + "; now acting: " + second);
  } finally {
    await context.close();
    require("fs").rmSync(userDataDir, { recursive: true, force: true });
  }
}

main().catch((error) => fail(error.stack || String(error)));
