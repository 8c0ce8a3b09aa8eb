// digestd's web page: three views over the JSON API, routed by path.
//   /ui/                 one source → one digest
//   /ui/multi            several sources within a budget
//   /ui/archive/         the archived sources (by label and kind) and a search across them
//   /ui/archive/<hash>   an archived text, ?locator= to highlight a span
//   /ui/check            a report's citations checked against the archive
import { checkLocator, codePoints, parseLocator, PAGE_SEPARATOR } from "./locator.js";
import { describeSource, fileSource, MAX_SOURCES, parseSources } from "./sources.js";
import { checkView } from "./check.js";

const PREFIX = "/ui/";

// ---------------------------------------------------------------- helpers

/** el builds an element: el("a", {href: "/x", class: "c"}, "text", child). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

const $ = (sel, root = document) => root.querySelector(sel);

function shortHash(hash) {
  const hex = String(hash ?? "").replace(/^sha256:/, "");
  return hex.length > 16 ? `sha256:${hex.slice(0, 12)}…` : String(hash ?? "");
}

function formatNumber(n) {
  return typeof n === "number" ? n.toLocaleString("en-US") : "—";
}

function archiveViewURL(hash, locator) {
  const q = locator ? `?locator=${encodeURIComponent(locator)}` : "";
  return `${PREFIX}archive/${encodeURIComponent(hash)}${q}`.replace(/%3A/gi, ":");
}

function blobURL(hash) {
  return `/v1/archive/${hash}`;
}

/** hashLink shows a content hash as a link, the full hash in its title. */
function hashLink(hash, href, label) {
  return el("a", { href, class: "hash", title: hash }, label ?? shortHash(hash));
}

function setStatus(form, text) {
  $(".status", form).textContent = text;
}

function setBusy(form, busy) {
  const button = $("button[type=submit]", form);
  button.disabled = busy;
  form.setAttribute("aria-busy", busy ? "true" : "false");
}

// ---------------------------------------------------------------- API calls

/** APIError is a failed call: an error envelope, a non-JSON answer, or no answer. */
class APIError extends Error {
  constructor({ status = 0, envelope = null, message = "" }) {
    super(envelope?.error || message || `HTTP ${status}`);
    this.status = status;
    this.envelope = envelope;
  }
}

// The API key, when the server needs one, is kept for this tab only.
const apiKeyInput = document.getElementById("api-key");
if (apiKeyInput) {
  apiKeyInput.value = sessionStorage.getItem("digestd-api-key") || "";
  apiKeyInput.addEventListener("change", () => sessionStorage.setItem("digestd-api-key", apiKeyInput.value.trim()));
}

async function send(url, init = {}) {
  const key = sessionStorage.getItem("digestd-api-key");
  const headers = new Headers(init.headers || {});
  if (key) headers.set("X-API-Key", key);
  try {
    return await fetch(url, { credentials: "same-origin", ...init, headers });
  } catch (err) {
    throw new APIError({ message: `Could not reach digestd (${err.message}). Check that the service is running.` });
  }
}

async function readEnvelope(res) {
  const raw = await res.text();
  try {
    const body = JSON.parse(raw);
    if (body && typeof body === "object" && "success" in body) return body;
  } catch {
    // Not JSON: reported below with the HTTP status.
  }
  return null;
}

/** callJSON sends a request and returns the success envelope, or throws APIError. */
async function callJSON(url, init) {
  const res = await send(url, init);
  const env = await readEnvelope(res);
  if (!env) throw new APIError({ status: res.status, message: `The server answered HTTP ${res.status} without a JSON envelope.` });
  if (!res.ok || env.success === false) throw new APIError({ status: res.status, envelope: env });
  return env;
}

/** textHashOfDigest reads an archived digest and returns the hash of its text, or null. */
async function textHashOfDigest(digestHash) {
  try {
    const res = await send(blobURL(digestHash));
    if (!res.ok) return null;
    const stored = await res.json();
    return stored?.payload?.source_text_hash ?? null;
  } catch {
    return null;
  }
}

/** texts caches archived texts and their code points by hash (they never change). */
const texts = new Map();

async function archivedText(hash) {
  if (texts.has(hash)) return texts.get(hash);
  const res = await send(blobURL(hash));
  if (!res.ok) {
    const env = await readEnvelope(res);
    throw new APIError({ status: res.status, envelope: env, message: `The archive answered HTTP ${res.status}.` });
  }
  const text = await res.text();
  const entry = { text, points: codePoints(text) };
  texts.set(hash, entry);
  return entry;
}

// ---------------------------------------------------------------- shared rendering

/** renderError fills slot with an API error: code, message, remediation, request id. */
function renderError(slot, err) {
  const env = err instanceof APIError ? err.envelope : null;
  const data = env?.data ?? {};
  const title = err.status ? `Request failed · HTTP ${err.status}` : "Request failed";
  const box = el("div", { class: "error-box", role: "alert", tabindex: "-1" },
    el("h2", {}, title),
    el("p", { class: "error-line" },
      data.error_code ? el("code", { class: "error-code" }, data.error_code) : null,
      data.error_type ? el("span", { class: "error-type" }, data.error_type) : null,
      el("span", { class: "error-message" }, err.message)),
    // A page user sends a key through the "API key" field, not a header.
    data.error_code === "UNAUTHORIZED"
      ? el("p", { class: "remediation" }, el("strong", {}, "What to do: "), el("span", { class: "remediation-text" }, "Enter a valid key in the “API key” field at the top of the page, then try again."))
      : data.remediation ? el("p", { class: "remediation" }, el("strong", {}, "What to do: "), el("span", { class: "remediation-text" }, data.remediation)) : null,
    data.retry_after ? el("p", { class: "muted" }, `Retry after ${data.retry_after} s.`) : null,
    // Every source failed: list each one, not only the first.
    Array.isArray(data.details?.failed) && data.details.failed.length
      ? el("ul", { class: "failed-sources" }, data.details.failed.map((f) =>
        el("li", { dataset: { id: f.id } }, el("strong", {}, f.id), " ", el("code", { class: "error-code" }, f.error_code), " ", f.message)))
      : null,
    env?.meta?.request_id ? el("p", { class: "muted" }, "Request id ", el("code", {}, env.meta.request_id)) : null);
  slot.replaceChildren(box);
  box.focus();
}

function renderWarnings(slot, meta) {
  const details = meta?.warning_details ?? [];
  slot.replaceChildren(...details.map((w) =>
    el("p", { class: "warning" }, el("code", {}, w.code), " ", w.message)));
}

function facts(dl, rows) {
  dl.replaceChildren();
  for (const [term, value] of rows) {
    if (value === undefined || value === null || value === "") continue;
    dl.append(el("div", {}, el("dt", {}, term), el("dd", {}, value)));
  }
}

function scoreBar(score) {
  const pct = Math.max(0, Math.min(1, Number(score) || 0)) * 100;
  const fill = el("span", { class: "score-fill" });
  fill.style.width = `${pct.toFixed(1)}%`;
  return el("span", { class: "score", title: "relevance score in [0, 1]" },
    el("span", { class: "score-bar", "aria-hidden": "true" }, fill),
    el("span", { class: "score-value" }, Number(score).toFixed(3)));
}

/**
 * renderCanonical shows an archived text in container, the code points
 * [span.start, span.end) in a <mark>, pages (split at the form feed) with
 * their numbers. It returns the mark, or null without a span.
 */
function renderCanonical(container, points, span, paged) {
  container.replaceChildren();
  let page = 1;
  const appendText = (from, to, parent) => {
    let run = [];
    const flush = () => {
      if (run.length) parent.append(document.createTextNode(run.join("")));
      run = [];
    };
    for (let i = from; i < to; i++) {
      if (points[i] === PAGE_SEPARATOR) {
        flush();
        page++;
        parent.append(el("span", { class: "page-break", role: "separator", "aria-label": `Page ${page}`, dataset: { page } }));
      } else {
        run.push(points[i]);
      }
    }
    flush();
  };
  if (paged) container.append(el("span", { class: "page-break first", role: "separator", "aria-label": "Page 1", dataset: { page: 1 } }));
  if (!span) {
    appendText(0, points.length, container);
    return null;
  }
  const start = Math.min(span.start, points.length);
  const end = Math.min(span.end, points.length);
  appendText(0, start, container);
  const mark = el("mark", { id: `${container.id}-mark`, tabindex: "-1" });
  appendText(start, end, mark);
  container.append(mark);
  appendText(end, points.length, container);
  return mark;
}

/**
 * revealMark scrolls the text box so the mark sits in its upper third,
 * brings the box's card into the window if it is not, and focuses the mark.
 */
function revealMark(mark) {
  if (!mark) return;
  const box = mark.closest(".canonical");
  box.scrollTop = Math.max(0, mark.offsetTop - box.clientHeight / 3);
  box.closest(".card").scrollIntoView({ block: "nearest", behavior: "instant" });
  mark.focus({ preventScroll: true });
}

/** renderCheck reports whether a locator's slice matched, in green or red. */
function renderCheck(slot, locator, check, what) {
  const ok = check.ok;
  slot.className = `check ${ok ? "ok" : "bad"}`;
  slot.replaceChildren(
    el("span", { class: "check-icon", "aria-hidden": "true" }, ok ? "✓" : "✗"),
    el("span", {},
      el("code", {}, locator),
      check.page ? el("span", { class: "page-badge" }, `page ${check.page}`) : null,
      ok ? ` — ${what}` : " — mismatch: " + check.problems.join("; ")));
}

// ---------------------------------------------------------------- digest view

/** MAX_REMOVED bounds the removed blocks the digest view lists. */
const MAX_REMOVED = 300;

/**
 * renderRemoved lists a page's removed blocks, greyed, from the extractor's
 * decisions (source.decisions with ?explain=1): each final drop with text,
 * the rule that removed it on hover (its title) and for screen readers.
 */
function renderRemoved(decisions) {
  const drops = decisions.filter((d) => d.final && d.action !== "keep" && d.text);
  const list = $("#digest-removed");
  list.replaceChildren(...drops.slice(0, MAX_REMOVED).map((d) =>
    el("li", { class: "removed", title: `removed by ${d.rule} (${d.stage})`, dataset: { rule: d.rule } },
      el("span", { class: "removed-text" }, d.text),
      el("span", { class: "visually-hidden" }, ` — removed by ${d.rule}`))));
  if (drops.length > MAX_REMOVED) list.append(el("li", { class: "empty" }, `and ${formatNumber(drops.length - MAX_REMOVED)} more`));
  $("#digest-removed-panel").hidden = decisions.length === 0;
}

function digestView() {
  const form = $("#digest-form");
  const kinds = form.elements.kind;
  const showKind = () => {
    const kind = kinds.value;
    for (const field of form.querySelectorAll("[data-kind]")) {
      field.hidden = !field.dataset.kind.split(" ").includes(kind);
    }
    $("label[for=digest-text]").textContent = kind === "html" ? "HTML" : "Text";
  };
  for (const radio of kinds) radio.addEventListener("change", showKind);
  showKind();

  let current = null; // {payload, hash, paged}

  const optionValues = () => {
    const opts = {};
    for (const name of ["max_evidence", "max_key_points", "snippet_max_chars", "summary_max_chars"]) {
      const v = form.elements[name].value.trim();
      if (v !== "") opts[name] = Number(v);
    }
    return opts;
  };

  const buildRequest = () => {
    const query = form.elements.query.value;
    const opts = optionValues();
    const kind = kinds.value;
    // The extractor's decisions exist for web pages only (see ?explain=1).
    const explain = kind !== "text" && form.elements.explain.checked;
    if (kind === "file") {
      const file = form.elements.file.files[0];
      const body = new FormData();
      body.append("query", query);
      if (file) body.append("file", file, file.name);
      const params = new URLSearchParams(Object.entries(opts).map(([k, v]) => [k, String(v)]));
      if (explain) params.set("explain", "1");
      return { url: `/v1/digest${params.size ? `?${params}` : ""}`, init: { method: "POST", body } };
    }
    const source = kind === "url" ? { url: form.elements.url.value.trim() } : { [kind]: form.elements.text.value };
    const body = { query, source };
    if (Object.keys(opts).length) body.options = opts;
    const url = explain ? "/v1/digest?explain=1" : "/v1/digest";
    return { url, init: { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) } };
  };

  const showSnippet = (index) => {
    if (!current?.entry) return;
    const snippet = current.payload.evidence_snippets[index];
    const check = checkLocator(current.entry.points, snippet.locator, snippet.text);
    const mark = renderCanonical($("#digest-text-view"), current.entry.points, check.span, current.paged);
    renderCheck($("#digest-check"), snippet.locator, check, `snippet ${index + 1} matches the archived text`);
    for (const li of $("#digest-snippets").children) li.classList.toggle("selected", Number(li.dataset.index) === index);
    for (const a of $("#digest-snippets").querySelectorAll("a.show")) a.removeAttribute("aria-current");
    $(`#digest-snippets li[data-index="${index}"] a.show`)?.setAttribute("aria-current", "true");
    revealMark(mark);
  };

  const renderResult = (env) => {
    const { digest: payload, source, digest_hash: digestHash } = env.data;
    const record = source.record ?? {};
    // PDFs, presentations and spreadsheets have pages (slides, sheets).
    const paged = Boolean(record.page_count);
    current = { payload, hash: source.archive_hash, paged, entry: null };
    const tel = env.meta?.telemetry ?? {};
    facts($("#digest-facts"), [
      ["Kind", source.kind],
      ["Title", source.title || record.title],
      ["URL", record.final_url || record.requested_url ? el("a", { href: record.final_url || record.requested_url, rel: "noopener noreferrer" }, record.final_url || record.requested_url) : null],
      ["Pages", record.page_count],
      ["Extractor", record.extractor ? `${record.extractor} ${record.extractor_version ?? ""}`.trim() : null],
      ["Text", hashLink(source.archive_hash, archiveViewURL(source.archive_hash))],
      ["Digest", hashLink(digestHash, blobURL(digestHash))],
      ["Length", `${formatNumber(payload.original_chars)} → ${formatNumber(payload.digest_chars)} characters (ratio ${Number(payload.compression_ratio).toFixed(2)})`],
      ["Served in", `${tel.duration_ms ?? "—"} ms${tel.cache_hit ? " · from cache" : ""}`],
    ]);
    renderWarnings($("#digest-warnings"), env.meta);
    $("#digest-summary").textContent = payload.summary || "No summary: the source has too little text for one.";
    const kp = $("#digest-keypoints");
    kp.replaceChildren(...payload.key_points.map((p) => el("li", {}, p)));
    $("#digest-keypoints-title").hidden = payload.key_points.length === 0;
    kp.hidden = payload.key_points.length === 0;

    const list = $("#digest-snippets");
    list.replaceChildren(...payload.evidence_snippets.map((s, i) => {
      const span = parseLocator(s.locator);
      const show = el("a", {
        class: "show", href: archiveViewURL(source.archive_hash, s.locator),
        "aria-describedby": `snippet-${i}-text`,
        onclick: (ev) => {
          if (ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
          ev.preventDefault();
          showSnippet(i);
        },
      }, "Show in text");
      return el("li", { class: "snippet", dataset: { index: i } },
        el("div", { class: "snippet-head" },
          el("span", { class: "rank" }, `#${i + 1}`),
          scoreBar(s.relevance_score),
          span?.page ? el("span", { class: "page-badge" }, `page ${span.page}`) : null,
          el("code", { class: "locator" }, s.locator),
          el("span", { class: "snippet-check", "aria-live": "off" })),
        el("blockquote", { id: `snippet-${i}-text`, class: "snippet-text" }, s.text),
        el("div", { class: "snippet-actions" }, show));
    }));
    if (!payload.evidence_snippets.length) list.replaceChildren(el("li", { class: "empty" }, "No evidence snippets."));

    renderRemoved(source.decisions ?? []);
    $("#digest-check").className = "check";
    $("#digest-check").textContent = "Loading the archived text…";
    $("#digest-text-view").replaceChildren();
    $("#digest-result").hidden = false;
  };

  const loadText = async () => {
    const mine = current;
    try {
      mine.entry = await archivedText(mine.hash);
    } catch (err) {
      $("#digest-check").replaceChildren();
      renderError($("#digest-check"), err);
      return;
    }
    if (current !== mine) return;
    renderCanonical($("#digest-text-view"), mine.entry.points, null, mine.paged);
    // Check every locator by slicing here too, so a mismatch shows at once.
    const items = $("#digest-snippets").querySelectorAll("li.snippet");
    mine.payload.evidence_snippets.forEach((s, i) => {
      const check = checkLocator(mine.entry.points, s.locator, s.text);
      const badge = $(".snippet-check", items[i]);
      badge.className = `snippet-check ${check.ok ? "ok" : "bad"}`;
      badge.textContent = check.ok ? "✓ locator checked" : "✗ locator mismatch";
      badge.title = check.ok ? "the archived text at this locator equals the snippet" : check.problems.join("; ");
    });
    $("#digest-check").className = "check";
    $("#digest-check").textContent = `${formatNumber(mine.entry.points.length)} code points. Choose “Show in text” on a snippet to highlight it.`;
  };

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#digest-error").replaceChildren();
    const kind = kinds.value;
    if (kind === "file" && !form.elements.file.files.length) {
      renderError($("#digest-error"), new APIError({ message: "Choose a file to upload." }));
      return;
    }
    setBusy(form, true);
    setStatus(form, "Digesting…");
    try {
      const { url, init } = buildRequest();
      const env = await callJSON(url, init);
      renderResult(env);
      setStatus(form, "Done.");
      await loadText();
    } catch (err) {
      $("#digest-result").hidden = true;
      setStatus(form, "Failed.");
      renderError($("#digest-error"), err);
    } finally {
      setBusy(form, false);
    }
  });
}

// ---------------------------------------------------------------- multi view

function multiView() {
  const form = $("#multi-form");

  const fidelityBadge = (f) => el("span", { class: `badge fidelity-${f}` }, f.replace("_", " "));

  const item = (d, label) => {
    const snippets = d.digest?.evidence_snippets ?? [];
    return el("li", { class: "item", dataset: { id: d.id, fidelity: d.fidelity } },
      el("div", { class: "item-head" },
        d.rank ? el("span", { class: "rank" }, `#${d.rank}`) : null,
        el("strong", { class: "item-id" }, d.id),
        d.fidelity ? fidelityBadge(d.fidelity) : null,
        d.score !== undefined ? scoreBar(d.score) : null,
        d.kind ? el("span", { class: "muted" }, d.kind) : null),
      el("p", { class: "item-label" }, d.title || label),
      (d.summary ?? d.digest?.summary) ? el("p", { class: "item-summary" }, d.summary ?? d.digest.summary) : null,
      snippets.length ? el("ol", { class: "mini-snippets" }, snippets.slice(0, 3).map((s) =>
        el("li", {}, el("a", { href: archiveViewURL(d.archive_hash, s.locator), "data-route": "" }, s.text)))) : null,
      el("p", { class: "links" },
        d.archive_hash ? el("a", { href: archiveViewURL(d.archive_hash), "data-route": "" }, "Archived text") : null,
        d.digest_hash ? el("a", { href: blobURL(d.digest_hash) }, "Full digest (JSON)") : null));
  };

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#multi-error").replaceChildren();
    const sources = parseSources(form.elements.sources.value);
    for (const file of Array.from(form.elements.files?.files ?? [])) {
      const spec = await fileSource(file);
      if (sources.some((s) => s.id === spec.id)) spec.id = `${spec.id} (${sources.length + 1})`;
      sources.push(spec);
    }
    if (!sources.length) {
      renderError($("#multi-error"), new APIError({ message: "Add at least one source: a URL, a text or a file." }));
      return;
    }
    if (sources.length > MAX_SOURCES) {
      renderError($("#multi-error"), new APIError({ message: `At most ${MAX_SOURCES} sources per request; there are ${sources.length}.` }));
      return;
    }
    const labels = Object.fromEntries(sources.map((s) => [s.id, describeSource(s)]));
    const body = { query: form.elements.query.value, sources, detail: form.elements.detail?.value || "full" };
    const budget = form.elements.max_chars.value.trim();
    if (budget !== "") body.budget = { max_chars: Number(budget) };
    setBusy(form, true);
    setStatus(form, `Digesting ${sources.length} source${sources.length === 1 ? "" : "s"}…`);
    try {
      const env = await callJSON("/v1/digests", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      });
      const { data, meta } = env;
      facts($("#multi-facts"), [
        ["Sources", formatNumber(data.total_sources)],
        ["Included", formatNumber(data.included)],
        ["Dropped", formatNumber(data.dropped)],
        ["Failed", formatNumber(data.failed.length)],
        ["Fidelity", meta.content_fidelity ? fidelityBadge(meta.content_fidelity) : null],
        ["Budget", budget !== "" ? `${formatNumber(Number(budget))} characters` : "none"],
        ["Tokens", meta.telemetry?.tokens_estimated !== undefined ? `≈ ${formatNumber(meta.telemetry.tokens_estimated)}` : null],
      ]);
      renderWarnings($("#multi-warnings"), meta);
      const included = $("#multi-included");
      included.replaceChildren(...data.digests.map((d) => item(d, labels[d.id])));
      if (!data.digests.length) included.replaceChildren(el("li", { class: "empty" }, "None fit the budget."));

      const dropped = $("#multi-dropped");
      // content_archive_hashes maps an id to its full digest's hash; the
      // digest's payload names the canonical text (source_text_hash).
      const refs = meta.content_archive_hashes ?? {};
      const droppedIDs = meta.dropped_content_ids ?? [];
      const textHashes = await Promise.all(droppedIDs.map((id) => refs[id] ? textHashOfDigest(refs[id]) : null));
      dropped.replaceChildren(...droppedIDs.map((id, i) => {
        const digestHash = refs[id];
        const textHash = textHashes[i];
        return el("li", { class: "item", dataset: { id } },
          el("div", { class: "item-head" }, el("strong", { class: "item-id" }, id), el("span", { class: "badge dropped" }, "dropped")),
          el("p", { class: "item-label" }, labels[id] ?? ""),
          el("p", { class: "links" },
            digestHash ? el("a", { href: blobURL(digestHash), class: "dropped-digest" }, "Archived digest (JSON)") : null,
            textHash ? el("a", { href: archiveViewURL(textHash), "data-route": "", class: "dropped-text" }, "Archived text") : null));
      }));
      if (!dropped.children.length) dropped.replaceChildren(el("li", { class: "empty" }, "None."));

      const failed = $("#multi-failed");
      failed.replaceChildren(...data.failed.map((f) =>
        el("li", { class: "item failed", dataset: { id: f.id } },
          el("div", { class: "item-head" }, el("strong", { class: "item-id" }, f.id), el("code", { class: "error-code" }, f.error_code)),
          el("p", { class: "item-label" }, labels[f.id] ?? ""),
          el("p", { class: "error-message" }, f.message))));
      if (!failed.children.length) failed.replaceChildren(el("li", { class: "empty" }, "None."));

      $("#multi-result").hidden = false;
      setStatus(form, "Done.");
    } catch (err) {
      $("#multi-result").hidden = true;
      setStatus(form, "Failed.");
      renderError($("#multi-error"), err);
    } finally {
      setBusy(form, false);
    }
  });
}

// ---------------------------------------------------------------- archive view

function archiveView() {
  const form = $("#archive-form");
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const hash = form.elements.hash.value.trim();
    const locator = form.elements.locator.value.trim();
    if (!hash) {
      renderError($("#archive-error"), new APIError({ message: "Enter the hash of an archived text." }));
      return;
    }
    navigate(archiveViewURL(hash, locator));
  });
}

// ---------------------------------------------------------------- archive home: sources and search

/** archiveFilter reads the label and kind the search form selects. */
function archiveFilter() {
  const form = $("#search-form");
  return { label: form.elements.label.value.trim(), kind: form.elements.kind.value };
}

/** listSources shows a page of archived sources, after cursor (appended) or from the first. */
async function listSources(cursor) {
  const { label, kind } = archiveFilter();
  const q = new URLSearchParams({ limit: "20" });
  if (label) q.set("label", label);
  if (kind) q.set("kind", kind);
  if (cursor) q.set("cursor", cursor);
  const list = $("#sources-list");
  const more = $("#sources-more");
  if (!cursor) $("#search-error").replaceChildren();
  try {
    const env = await callJSON(`/v1/sources?${q}`);
    const items = env.data.sources.map((s) => el("li", {},
      el("a", { href: archiveViewURL(s.archive_hash), "data-route": "" }, s.title || s.url || shortHash(s.archive_hash)),
      " ", el("span", { class: "muted" }, `${s.kind ?? ""} · ${formatNumber(s.text_chars)} characters${s.labels?.length ? " · " + s.labels.join(", ") : ""}`)));
    if (cursor) list.append(...items);
    else list.replaceChildren(...items);
    if (!cursor && items.length === 0) list.replaceChildren(el("li", {}, "No archived source matches."));
    const next = env.meta.pagination?.cursor;
    more.hidden = !next;
    more.dataset.cursor = next ?? "";
  } catch (err) {
    // A label no source carries is NOT_FOUND: the list it filters is empty.
    if (!cursor) list.replaceChildren();
    more.hidden = true;
    renderError($("#search-error"), err);
  }
}

function archiveHome() {
  const form = $("#search-form");
  $("#sources-more").addEventListener("click", (ev) => listSources(ev.currentTarget.dataset.cursor));
  for (const name of ["label", "kind"]) form.elements[name].addEventListener("change", () => listSources());
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#search-error").replaceChildren();
    const query = form.elements.query.value.trim();
    if (!query) {
      renderError($("#search-error"), new APIError({ message: "Enter a question or words to search for." }));
      return;
    }
    const { label, kind } = archiveFilter();
    const filter = {};
    if (label) filter.labels = [label];
    if (kind) filter.kinds = [kind];
    setBusy(form, true);
    setStatus(form, "Searching…");
    try {
      const env = await callJSON("/v1/search", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ query, limit: 20, detail: "preview", filter }),
      });
      const results = env.data.results;
      $("#search-list").replaceChildren(...(results.length ? results.map((r) => el("li", {},
        scoreBar(r.score),
        el("a", { href: archiveViewURL(r.archive_hash, r.locator), "data-route": "", class: "passage" }, r.text),
        " ", el("span", { class: "muted" }, `${r.title || shortHash(r.archive_hash)} · ${r.locator}`))) : [el("li", {}, "No passage matches.")]));
      $("#search-results").hidden = false;
      setStatus(form, `${results.length} of about ${formatNumber(env.data.total_estimate)} passages`);
    } catch (err) {
      renderError($("#search-error"), err);
      setStatus(form, "");
    } finally {
      setBusy(form, false);
    }
  });
}

/** loadArchive shows the archived text hash, with the span at locator highlighted. */
async function loadArchive(hash, locator) {
  const form = $("#archive-form");
  form.elements.hash.value = hash;
  form.elements.locator.value = locator ?? "";
  $("#archive-error").replaceChildren();
  $("#archive-result").hidden = true;
  $("#archive-home").hidden = !!hash;
  if (!hash) {
    setStatus(form, "");
    listSources();
    return;
  }
  setBusy(form, true);
  setStatus(form, "Loading…");
  const enc = encodeURIComponent(hash);
  const recordCall = callJSON(`/v1/sources/${enc}`).catch((err) => err);
  const sliceCall = locator ? callJSON(`/v1/archive/${enc}/slice?locator=${encodeURIComponent(locator)}`).catch((err) => err) : null;
  try {
    const entry = await archivedText(hash);
    const record = await recordCall;
    const dl = $("#archive-facts");
    if (record instanceof Error) {
      const code = record.envelope?.data?.error_code;
      facts(dl, [["Hash", el("code", { class: "wrap" }, hash)], ["Record", code === "NOT_FOUND" ? "No source record: this blob is not a source text (a digest, or a record)." : `Not available (${code ?? record.message})`]]);
    } else {
      const r = record.data.record ?? {};
      const url = r.final_url || r.requested_url;
      facts(dl, [
        ["Title", r.title || "Untitled"],
        ["URL", url ? el("a", { href: url, rel: "noopener noreferrer" }, url) : null],
        ["Kind", r.kind],
        ["Pages", r.page_count],
        ["Empty pages", r.empty_pages?.length ? r.empty_pages.join(", ") : null],
        ["Extractor", r.extractor ? `${r.extractor} ${r.extractor_version ?? ""}`.trim() : null],
        ["Canonicalizer", r.canonicalizer],
        ["Characters", formatNumber(r.text_chars)],
        ["Author", r.author],
        ["Published", r.published],
        ["Language", r.language],
        ["Fetched", r.fetched_at],
        ["Content type", r.content_type],
        ["Raw bytes", r.raw_bytes !== undefined ? formatNumber(r.raw_bytes) : null],
        ["Text hash", el("code", { class: "wrap" }, record.data.archive_hash)],
        ["Record hash", hashLink(record.data.record_hash, blobURL(record.data.record_hash))],
      ]);
    }
    const paged = entry.points.includes(PAGE_SEPARATOR) || (!(record instanceof Error) && Boolean(record.data.record?.page_count));
    const checkSlot = $("#archive-check");
    let mark = null;
    if (locator) {
      const slice = await sliceCall;
      const expected = slice instanceof Error ? undefined : slice.data.text;
      const check = checkLocator(entry.points, locator, expected);
      if (slice instanceof Error) {
        check.ok = false;
        check.problems.push(`the server refused the locator (${slice.envelope?.data?.error_code ?? slice.message})`);
      }
      mark = renderCanonical($("#archive-text-view"), entry.points, check.span, paged);
      renderCheck(checkSlot, locator, check, "the slice here equals the server's slice");
    } else {
      renderCanonical($("#archive-text-view"), entry.points, null, paged);
      checkSlot.className = "check";
      checkSlot.textContent = `${formatNumber(entry.points.length)} code points.`;
    }
    $("#archive-result").hidden = false;
    setStatus(form, "");
    revealMark(mark);
  } catch (err) {
    setStatus(form, "Failed.");
    renderError($("#archive-error"), err);
  } finally {
    setBusy(form, false);
  }
}

// ---------------------------------------------------------------- routing

const TITLES = { digest: "Digest", multi: "Several sources", archive: "Archive", check: "Check a report" };

function routeOf(pathname) {
  const rel = pathname.startsWith(PREFIX) ? pathname.slice(PREFIX.length) : "";
  if (rel === "multi" || rel.startsWith("multi/")) return { view: "multi" };
  if (rel === "check") return { view: "check" };
  if (rel === "archive" || rel.startsWith("archive/")) {
    return { view: "archive", hash: decodeURIComponent(rel.slice("archive/".length)) };
  }
  return { view: "digest" };
}

function render(focus) {
  const route = routeOf(location.pathname);
  for (const view of document.querySelectorAll(".view")) view.hidden = view.id !== `view-${route.view}`;
  for (const a of document.querySelectorAll("nav a[data-view]")) {
    if (a.dataset.view === route.view) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  document.title = `${TITLES[route.view]} · digestd`;
  if (route.view === "archive") {
    loadArchive(route.hash, new URLSearchParams(location.search).get("locator"));
  }
  if (focus) {
    const h1 = $(`#view-${route.view} h1`);
    h1.setAttribute("tabindex", "-1");
    h1.focus();
  }
}

function navigate(href) {
  history.pushState(null, "", href);
  render(true);
  window.scrollTo(0, 0);
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-route]");
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(PREFIX)) return;
  ev.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener("popstate", () => render(true));

digestView();
multiView();
archiveView();
archiveHome();
checkView({ el, $, callJSON, archivedText, renderCanonical, renderCheck, revealMark, renderError, renderWarnings, facts, setBusy, setStatus, hashLink, archiveViewURL });
render(false);
