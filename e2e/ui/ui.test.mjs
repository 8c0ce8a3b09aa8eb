// Browser test of digestd's web page: drives Debian's Chromium (headless)
// through playwright-core against a running digestd. web/e2e_test.go builds
// and starts the server, then runs this script with:
//
//   DIGESTD_URL                 base URL of the running server (required)
//   DIGESTD_ARTIFACTS           folder for the screenshots (required)
//   DIGESTD_HOSTILE_FILE        a file the server refuses as a PDF (required)
//   DIGESTD_HOSTILE_ERROR_CODE  the error_code the API gives for it (required)
//   CHROMIUM                    the browser (default /usr/bin/chromium)
//
// It exits non-zero on the first failed check and prints what failed.
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined || v === "") throw new Error(`${name} is not set`);
  return v;
};
const BASE = env("DIGESTD_URL").replace(/\/$/, "");
const ARTIFACTS = env("DIGESTD_ARTIFACTS");
const HOSTILE_FILE = env("DIGESTD_HOSTILE_FILE");
const HOSTILE_CODE = env("DIGESTD_HOSTILE_ERROR_CODE");
const CHROMIUM = env("CHROMIUM", "/usr/bin/chromium");
const here = path.dirname(fileURLToPath(import.meta.url));
const axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

const QUERY = "What causes mother-to-child transmission of HIV?";
const LAUNCH_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

function step(name) {
  console.log(`# ${name}`);
}

async function shot(page, name) {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.mouse.move(0, 0);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`  screenshot ${file}`);
}

/** expectAccessible runs axe-core's WCAG 2.1 A/AA rules on the page as it is now. */
async function expectAccessible(page, what) {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const res = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
    return res.violations.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
  });
  assert.deepEqual(violations, [], `${what}: accessibility violations`);
}

/** snippetsOnPage reads the evidence list as the page shows it. */
async function snippetsOnPage(page) {
  return page.$$eval("#digest-snippets li.snippet", (items) => items.map((li) => ({
    index: Number(li.dataset.index),
    text: li.querySelector("blockquote").textContent,
    locator: li.querySelector("code.locator").textContent,
    check: li.querySelector(".snippet-check").className,
  })));
}

/** expectHighlight checks the mark in a text view: its text, its verdict, that it is in view and focused. */
async function expectHighlight(page, view, want) {
  const mark = page.locator(`#${view}-text-view mark`);
  await mark.waitFor();
  assert.equal(await mark.textContent(), want, "the highlighted span's text equals the snippet text");
  assert.match(await page.locator(`#${view}-check`).getAttribute("class"), /\bok\b/, "the locator check is green");
  const inView = await page.$eval(`#${view}-text-view`, (box) => {
    const m = box.querySelector("mark").getBoundingClientRect();
    const b = box.getBoundingClientRect();
    return m.top < b.bottom && m.bottom > b.top && m.top < window.innerHeight && m.bottom > 0;
  });
  assert.ok(inView, "the highlighted span is scrolled into view");
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), "MARK", "focus moves to the highlighted span");
}

async function main() {
  const profile = await mkdtemp(path.join(tmpdir(), "digestd-ui-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: LAUNCH_ARGS,
    viewport: { width: 1440, height: 900 },
    deviceScaleFactor: 1,
  });
  const offsite = [];
  const pageErrors = [];
  try {
    // The page may talk to digestd only: anything else is recorded and refused.
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(`${BASE}/`) || url.startsWith("data:")) return route.continue();
      offsite.push(url);
      return route.abort();
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(30_000);
    page.on("pageerror", (err) => pageErrors.push(String(err)));
    page.on("console", (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) pageErrors.push(msg.text());
    });

    step("the page's own locator and source parsing, in the browser");
    await page.goto(`${BASE}/`);
    assert.equal(new URL(page.url()).pathname, "/ui/", "/ redirects to /ui/");
    const unit = await page.evaluate(async () => {
      const loc = await import("/ui/assets/locator.js");
      const src = await import("/ui/assets/sources.js");
      const text = "a😀b\fc𝔘d";
      const points = loc.codePoints(text);
      return {
        parsed: loc.parseLocator("page:2:char:4-6"),
        bad: [loc.parseLocator("char:5-3"), loc.parseLocator("char:1"), loc.parseLocator("page:0:char:1-2")],
        slice: loc.slicePoints(points, 2, 3),
        afterAstral: loc.checkLocator(points, "page:2:char:4-6", "c𝔘").ok,
        wrongPage: loc.checkLocator(points, "page:1:char:4-6", "c𝔘").problems.length,
        crossing: loc.checkLocator(points, "char:2-5").ok,
        pastEnd: loc.checkLocator(points, "char:0-99").ok,
        sources: src.parseSources("https://a.example/x\nhttps://b.example/y\n---\nsome text\nmore\n---\n\n---\n<!doctype html><p>hi</p>"),
        oneText: src.parseSources("just one text\nhttps://a.example/ inside it"),
        mixed: src.parseSources("https://a.example/x\na line of notes\nhttps://b.example/y"),
      };
    });
    assert.deepEqual(unit.parsed, { start: 4, end: 6, page: 2 });
    assert.deepEqual(unit.bad, [null, null, null]);
    assert.equal(unit.slice, "b", "slicing counts code points, not UTF-16 units");
    assert.equal(unit.afterAstral, true);
    assert.equal(unit.wrongPage, 1);
    assert.equal(unit.crossing, false, "a span across a form feed is refused");
    assert.equal(unit.pastEnd, false);
    assert.deepEqual(unit.sources, [
      { id: "source-1", url: "https://a.example/x" },
      { id: "source-2", url: "https://b.example/y" },
      { id: "source-3", text: "some text\nmore" },
      { id: "source-4", html: "<!doctype html><p>hi</p>" },
    ]);
    assert.deepEqual(unit.oneText, [{ id: "source-1", text: "just one text\nhttps://a.example/ inside it" }]);
    assert.deepEqual(unit.mixed, [
      { id: "source-1", url: "https://a.example/x" },
      { id: "source-2", text: "a line of notes" },
      { id: "source-3", url: "https://b.example/y" },
    ], "mixed lines are one source each, not one text");

    // axe-core finds a nameless button: the accessibility checks below can fail.
    await page.evaluate(axeSource);
    const probe = await page.evaluate(async () => {
      const b = document.createElement("button");
      b.id = "axe-probe";
      document.querySelector("main").append(b);
      const res = await window.axe.run({ include: [["#axe-probe"]] }, { runOnly: { type: "rule", values: ["button-name"] } });
      b.remove();
      return res.violations.map((v) => v.id);
    });
    assert.deepEqual(probe, ["button-name"]);

    step("digest view: a pasted text");
    const article = await readFile(path.join(here, "fixtures", "article.txt"), "utf8");
    await page.locator("#digest-query").fill(QUERY);
    await page.getByLabel("Pasted text").check();
    await page.locator("#digest-text").fill(article);
    await page.locator("details.options summary").click();
    await page.getByLabel(/Snippet length/).fill("220");
    await page.getByRole("button", { name: "Digest", exact: true }).click();
    await page.locator("#digest-snippets li.snippet").first().waitFor();
    await page.locator("#digest-snippets .snippet-check.ok").first().waitFor();
    const snippets = await snippetsOnPage(page);
    assert.ok(snippets.length >= 2, `several snippets are shown (got ${snippets.length})`);
    for (const s of snippets) assert.match(s.check, /\bok\b/, `snippet ${s.locator} is checked by slicing in the page`);
    assert.equal(await page.locator("#digest-snippets .snippet-check.bad").count(), 0);
    const scores = await page.$$eval("#digest-snippets .score-value", (els) => els.map((e) => Number(e.textContent)));
    assert.deepEqual([...scores].sort((a, b) => b - a), scores, "snippets are ranked by score");
    assert.ok((await page.locator("#digest-summary").textContent()).length > 0, "the summary is shown");

    // The snippet that starts furthest into the text has astral characters
    // before it, so a UTF-16 slice would land elsewhere.
    const chosen = snippets.reduce((a, b) => (Number(/char:(\d+)/.exec(b.locator)[1]) > Number(/char:(\d+)/.exec(a.locator)[1]) ? b : a));
    const start = Number(/char:(\d+)/.exec(chosen.locator)[1]);
    const canonical = await page.evaluate(async () => {
      const href = document.querySelector("#digest-facts a.hash").getAttribute("href");
      const hash = decodeURIComponent(href.split("/").pop());
      return (await fetch(`/v1/archive/${hash}`)).text();
    });
    const prefix = Array.from(canonical).slice(0, start).join("");
    assert.notEqual(prefix.length, start, "the chosen snippet has astral characters before it");
    assert.notEqual(canonical.slice(start, start + chosen.text.length), chosen.text, "a UTF-16 slice would not match");

    await page.locator(`#digest-snippets li[data-index="${chosen.index}"] a.show`).click();
    await expectHighlight(page, "digest", chosen.text);
    assert.equal(await page.locator(`#digest-snippets li[data-index="${chosen.index}"]`).getAttribute("class"), "snippet selected");
    assert.equal(new URL(page.url()).pathname, "/ui/", "showing a snippet stays in the digest view");

    // The same works from the keyboard.
    const other = snippets.find((s) => s.index !== chosen.index);
    await page.locator(`#digest-snippets li[data-index="${other.index}"] a.show`).focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction((want) => document.querySelector("#digest-text-view mark")?.textContent === want, other.text);
    await expectHighlight(page, "digest", other.text);
    await page.locator(`#digest-snippets li[data-index="${chosen.index}"] a.show`).click();
    await expectHighlight(page, "digest", chosen.text);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "digest-view");
    await expectAccessible(page, "digest-view");
    const textHash = decodeURIComponent((await page.locator("#digest-facts a.hash").first().getAttribute("href")).split("/").pop());

    step("digest view: a pasted page's removed blocks, greyed, with their rule on hover");
    await page.goto(`${BASE}/ui/`);
    await page.locator("#digest-query").fill("Why are there two high tides a day?");
    await page.locator('label[for="kind-html"]').click();
    assert.ok(await page.locator("#kind-html").isChecked(), "the source is pasted HTML");
    await page.locator("#digest-text").fill(`<!doctype html><html lang="en"><head><title>Tides</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Tides explained</h1>
<p>The Moon's gravity pulls the oceans, raising two bulges of water on opposite sides of the Earth.</p>
<p>As the Earth turns, a coast passes through both bulges, so most places see two high tides a day.</p>
</article><footer>Copyright 2024 Example News. All rights reserved.</footer></body></html>`);
    await page.locator("#digest-explain").check();
    await page.getByRole("button", { name: "Digest", exact: true }).click();
    const footer = page.locator('#digest-removed li.removed[data-rule="nav-aside-footer"]', { hasText: "Copyright 2024" });
    await footer.waitFor();
    await footer.hover();
    assert.equal(await footer.getAttribute("title"), "removed by nav-aside-footer (clean)", "the rule's name shows on hover");
    assert.equal(await footer.evaluate((li) => getComputedStyle(li).color), "rgb(85, 97, 115)", "a removed block is greyed");
    await page.waitForFunction(() => /code points/.test(document.querySelector("#digest-check").textContent));
    assert.ok(!(await page.locator("#digest-text-view").textContent()).includes("Copyright 2024"), "the removed block is not in the archived text");
    await expectAccessible(page, "digest-removed");
    await page.locator("#digest-explain").uncheck();

    step("digest view: a PDF's page locators");
    // fixtures/multi-page.pdf is ingest/pdftext's generated three-page fixture (page 2 empty).
    await page.goto(`${BASE}/ui/`);
    await page.locator("#digest-query").fill("What does page three say?");
    await page.getByLabel("File", { exact: true }).first().check();
    await page.locator("#digest-file").setInputFiles(path.join(here, "fixtures", "multi-page.pdf"));
    await page.getByRole("button", { name: "Digest", exact: true }).click();
    await page.locator("#digest-snippets .snippet-check.ok").first().waitFor();
    const pdfSnippets = await snippetsOnPage(page);
    for (const s of pdfSnippets) assert.match(s.check, /\bok\b/, `snippet ${s.locator} is checked by slicing in the page`);
    const later = pdfSnippets.find((s) => /^page:([2-9]|\d\d+):/.test(s.locator));
    assert.ok(later, `a snippet past page 1 (got ${pdfSnippets.map((s) => s.locator).join(", ")})`);
    const laterPage = /^page:(\d+):/.exec(later.locator)[1];
    const laterItem = page.locator(`#digest-snippets li[data-index="${later.index}"]`);
    assert.equal(await laterItem.locator(".page-badge").textContent(), `page ${laterPage}`, "the snippet shows its page");
    await laterItem.locator("a.show").click();
    await expectHighlight(page, "digest", later.text);
    assert.equal(await page.locator("#digest-check .page-badge").textContent(), `page ${laterPage}`, "the check names the page");
    assert.equal(await page.locator("#digest-text-view .page-break").count(), 3, "the text view marks each page");
    assert.match(await page.locator("#digest-facts").textContent(), /Pages\s*3/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "digest-pdf-view");
    await expectAccessible(page, "digest-pdf-view");

    step("digest view: a DOCX upload");
    // The dev set's report.docx, made by pandoc from ingest/doctext/testdata/devset/src/report.md.
    await page.goto(`${BASE}/ui/`);
    await page.locator("#digest-query").fill("How much did nitrate rise in the central zone?");
    await page.getByLabel("File", { exact: true }).first().check();
    await page.locator("#digest-file").setInputFiles(path.join(here, "..", "..", "ingest", "doctext", "testdata", "devset", "report.docx"));
    await page.getByRole("button", { name: "Digest", exact: true }).click();
    await page.locator("#digest-snippets .snippet-check.ok").first().waitFor();
    const docxSnippets = await snippetsOnPage(page);
    assert.ok(docxSnippets.length > 0, "the DOCX has evidence snippets");
    for (const s of docxSnippets) {
      assert.match(s.check, /\bok\b/, `snippet ${s.locator} is checked by slicing in the page`);
      assert.match(s.locator, /^char:/, "a DOCX has no pages");
    }
    assert.ok(docxSnippets.some((s) => /nitrate/i.test(s.text)), `a snippet about nitrate (got ${docxSnippets.map((s) => s.text).join(" | ")})`);
    assert.match(await page.locator("#digest-facts").textContent(), /Kind\s*docx/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "digest-docx-view");
    await expectAccessible(page, "digest-docx-view");

    step("multi-source view: a budget, a dropped source, a failed one");
    await page.getByRole("link", { name: "Several sources" }).click();
    await page.waitForURL(`${BASE}/ui/multi`);
    assert.equal(await page.locator("#view-multi").isVisible(), true);
    assert.equal(await page.locator("#view-digest").isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "multi-title", "focus moves to the view's heading");
    const paragraphs = article.split(/\n\s*\n/);
    const sourcesBox = [
      paragraphs.slice(0, 7).join("\n\n"),
      "---",
      paragraphs.slice(7).join("\n\n"),
      "---",
      "The library opens at nine on weekdays and at ten on Saturdays. Books may be borrowed for three weeks and renewed twice.",
      "---",
      "http://127.0.0.1:9/private-report",
    ].join("\n");
    await page.locator("#multi-query").fill(QUERY);
    await page.locator("#multi-sources").fill(sourcesBox);
    await page.locator("#multi-budget").fill("700");
    await page.getByRole("button", { name: "Digest sources" }).click();
    await page.locator("#multi-result").waitFor();
    const included = await page.$$eval("#multi-included li.item", (els) => els.map((e) => ({ id: e.dataset.id, fidelity: e.dataset.fidelity })));
    assert.ok(included.length >= 1, "at least one digest is included");
    for (const it of included) assert.match(it.fidelity, /^(full|summary|reference_only)$/);
    const dropped = page.locator("#multi-dropped li.item");
    assert.ok((await dropped.count()) >= 1, "the budget drops at least one source");
    const droppedDigest = await dropped.first().locator("a.dropped-digest").getAttribute("href");
    const droppedText = await dropped.first().locator("a.dropped-text").getAttribute("href");
    assert.match(droppedDigest, /^\/v1\/archive\/sha256:[0-9a-f]{64}$/);
    assert.match(droppedText, /^\/ui\/archive\/sha256:[0-9a-f]{64}$/);
    const blob = await page.request.get(`${BASE}${droppedDigest}`);
    assert.equal(blob.status(), 200, "the dropped source's digest is in the archive");
    assert.ok(JSON.parse(await blob.text()), "the archived digest is JSON");
    const failed = page.locator("#multi-failed li.item");
    assert.equal(await failed.count(), 1, "the private URL fails");
    assert.match(await failed.locator("code.error-code").textContent(), /^[A-Z][A-Z0-9_]+$/);
    assert.equal(await page.locator("#multi-warnings .warning code", { hasText: "PARTIAL_FAILURE" }).count(), 1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "multi-view");
    await expectAccessible(page, "multi-view");

    step("multi-source view: every failure is shown, and a detail level");
    await page.locator("#multi-files").setInputFiles([]);
    await page.locator("#multi-sources").fill("http://127.0.0.1:9/one\nhttp://127.0.0.1:9/two");
    await page.getByRole("button", { name: "Digest sources" }).click();
    await page.locator("#multi-error .failed-sources li").first().waitFor();
    assert.equal(await page.locator("#multi-error .failed-sources li").count(), 2, "both failures are listed");
    await page.locator("#multi-sources").fill(sourcesBox);
    await page.locator("#multi-files").setInputFiles(path.join(here, "fixtures", "multi-page.pdf"));
    await page.locator("#multi-detail").selectOption("ids_only");
    await page.getByRole("button", { name: "Digest sources" }).click();
    await page.waitForFunction(() => /Sources\s*5/.test(document.querySelector("#multi-facts")?.textContent ?? ""));
    assert.equal(await page.locator("#multi-included li.item .item-summary").count(), 0, "ids_only items carry no summary");
    // Back to the first request, for the archive view below.
    await page.locator("#multi-files").setInputFiles([]);
    await page.locator("#multi-detail").selectOption("full");
    await page.getByRole("button", { name: "Digest sources" }).click();
    await page.waitForFunction(() => /Sources\s*4/.test(document.querySelector("#multi-facts")?.textContent ?? ""));

    step("archive view: a dropped source's text, then a locator");
    await dropped.first().locator("a.dropped-text").click();
    await page.waitForURL(`${BASE}${droppedText}`);
    await page.locator("#archive-result").waitFor();
    assert.match(await page.locator("#archive-facts").textContent(), /Extractor\s*plain-text/);
    assert.ok((await page.locator("#archive-text-view").textContent()).length > 0);

    await page.goto(`${BASE}/ui/archive/${textHash}?locator=${encodeURIComponent(chosen.locator)}`);
    await page.locator("#archive-result").waitFor();
    await expectHighlight(page, "archive", chosen.text);
    assert.match(await page.locator("#archive-facts").textContent(), /Characters/);
    assert.equal(await page.locator("#archive-locator").inputValue(), chosen.locator);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "archive-view");
    await expectAccessible(page, "archive-view");

    step("archive tab: the archived sources listed, a search, a passage opened highlighted");
    await page.goto(`${BASE}/ui/archive/`);
    await page.locator("#sources-list li a").first().waitFor();
    assert.ok(await page.locator("#sources-list li a").count() >= 2, "the digested sources are listed");
    await page.locator("#search-kind").selectOption("text");
    await page.locator("#sources-list li a").first().waitFor();
    await page.locator("#search-query").fill(QUERY);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.locator("#search-list li a.passage").first().waitFor();
    const passage = await page.locator("#search-list li a.passage").first();
    const passageText = await passage.textContent();
    assert.match(await passage.getAttribute("href"), /^\/ui\/archive\/sha256:[0-9a-f]{64}\?locator=char(:|%3A)\d+-\d+$/i);
    await expectAccessible(page, "archive-home");
    await shot(page, "archive-search");
    await passage.click();
    await page.locator("#archive-result").waitFor();
    await expectHighlight(page, "archive", passageText);
    assert.ok(await page.locator("#archive-home").isHidden(), "the list and search give way to the text");

    step("check view: a report's citations in green, amber and red");
    await page.getByRole("link", { name: "Check a report" }).click();
    await page.waitForURL(`${BASE}/ui/check`);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "check-title", "focus moves to the view's heading");
    const report = [
      `The article says “${chosen.text}” [${textHash}#${chosen.locator}].`,
      `It also says “${other.text}” [${textHash}#${chosen.locator}].`,
      `It never says “zebras migrate across the frozen lake every spring” [${textHash}].`,
      `A source nobody gave says “${chosen.text}” [nobody].`,
    ].join("\n");
    await page.locator("#check-report").fill(report);
    await page.getByRole("button", { name: "Check citations" }).click();
    await page.locator("#check-citations li.citation").first().waitFor();
    const statuses = await page.$$eval("#check-citations li.citation", (els) => els.map((e) => e.dataset.status));
    assert.deepEqual(statuses, ["supported", "moved", "not_found", "unknown_source"]);
    const tones = await page.$$eval("#check-citations .badge", (els) => els.map((e) => getComputedStyle(e).color));
    assert.equal(tones[0], "rgb(22, 101, 52)", "supported is green");
    assert.equal(tones[1], "rgb(138, 83, 0)", "moved is amber");
    assert.equal(tones[2], "rgb(185, 28, 28)", "not found is red");
    assert.equal(await page.locator("#check-report-view .cite.warn").count(), 1, "the moved marker is amber in the report");
    await page.locator('#check-citations li[data-index="1"] button.show').click();
    await page.waitForFunction((want) => document.querySelector("#check-text-view mark")?.textContent === want, other.text);
    assert.equal(await page.locator("#check-text-view mark").textContent(), other.text, "a moved citation shows where the quote is");
    assert.match(await page.locator("#check-check").getAttribute("class"), /\bwarn\b/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, "check-view");
    await expectAccessible(page, "check-view");

    step("archive view: a locator past the end is shown as a mismatch, in red");
    await page.goto(`${BASE}/ui/archive/${textHash}?locator=char:0-999999`);
    await page.locator("#archive-check.bad").waitFor();
    const red = await page.$eval("#archive-check", (e) => getComputedStyle(e).color);
    assert.equal(red, "rgb(185, 28, 28)", "the mismatch is red");

    step("archive view: an unknown hash shows NOT_FOUND");
    await page.goto(`${BASE}/ui/archive/sha256:${"0".repeat(64)}`);
    await page.locator("#archive-error .error-box").waitFor();
    assert.equal(await page.locator("#archive-error .error-code").textContent(), "NOT_FOUND");

    step("error view: a hostile PDF upload");
    await page.goto(`${BASE}/ui/`);
    await page.locator("#digest-query").fill(QUERY);
    await page.getByLabel("File", { exact: true }).first().check();
    await page.locator("#digest-file").setInputFiles(HOSTILE_FILE);
    await page.getByRole("button", { name: "Digest", exact: true }).click();
    const box = page.locator("#digest-error .error-box");
    await box.waitFor();
    assert.equal(await box.getAttribute("role"), "alert");
    assert.equal(await box.locator(".error-code").textContent(), HOSTILE_CODE, "the API's error code is shown");
    assert.ok((await box.locator(".remediation-text").textContent()).trim().length > 0, "the remediation is shown");
    assert.equal(await page.locator("#digest-result").isVisible(), false);
    await shot(page, "error-view");
    await expectAccessible(page, "error-view");

    assert.deepEqual(pageErrors, [], "no script errors or policy violations");
    assert.deepEqual(offsite, [], "no request leaves digestd");
    console.log("ok");
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
