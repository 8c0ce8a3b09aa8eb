// The "Check a report" view (/ui/check): a report's citations checked by
// POST /v1/check, each shown green (supported), amber (moved) or red (not
// found, unknown source), with its span highlighted in the archived text.
import { checkLocator, codePoints } from "./locator.js";

/** STATUS names each citation status as the page shows it. */
export const STATUS = {
  supported: { label: "supported", tone: "ok" },
  moved: { label: "moved", tone: "warn" },
  not_found: { label: "not found", tone: "bad" },
  unknown_source: { label: "unknown source", tone: "bad" },
};

/**
 * parseSourceLines reads the sources box: one source a line, "ID REF" where
 * REF is an archive hash (sha256:…) or an http(s) URL. Blank lines are
 * skipped; a line of one word is REF with the id source-N.
 */
export function parseSourceLines(text) {
  const out = [];
  for (const raw of String(text).split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    const parts = line.split(/\s+/);
    const [id, ref] = parts.length > 1 ? [parts[0], parts.slice(1).join(" ")] : [`source-${out.length + 1}`, parts[0]];
    out.push(/^sha256:/i.test(ref) ? { id, archive: ref } : { id, url: ref });
  }
  return out;
}

/**
 * checkView wires the view. h holds the page's shared helpers (el, $,
 * callJSON, archivedText, renderCanonical, renderCheck, revealMark,
 * renderError, renderWarnings, facts, setBusy, setStatus, hashLink,
 * archiveViewURL).
 */
export function checkView(h) {
  const { el, $ } = h;
  const form = $("#check-form");
  let current = null; // the last answer's data

  const parseSpan = (locator) => {
    const m = /char:(\d+)-(\d+)$/.exec(locator || "");
    return m ? { start: Number(m[1]), end: Number(m[2]) } : null;
  };

  // The report with each citation marker coloured by its status.
  const renderReport = (report, citations) => {
    const points = codePoints(report);
    const view = $("#check-report-view");
    view.replaceChildren();
    const marks = new Map();
    for (const c of citations) {
      const span = parseSpan(c.report_locator);
      if (span && !marks.has(span.start)) marks.set(span.start, { span, c });
    }
    let at = 0;
    for (const start of [...marks.keys()].sort((a, b) => a - b)) {
      const { span, c } = marks.get(start);
      if (start < at) continue;
      view.append(points.slice(at, start).join(""));
      view.append(el("span", { class: `cite ${STATUS[c.status].tone}`, title: STATUS[c.status].label }, points.slice(start, span.end).join("")));
      at = span.end;
    }
    view.append(points.slice(at).join(""));
  };

  const showCitation = async (index) => {
    const c = current?.citations[index];
    if (!c) return;
    for (const li of $("#check-citations").children) li.classList.toggle("selected", Number(li.dataset.index) === index);
    const target = c.locator ?? c.support?.locator;
    const panel = $("#check-text-view");
    if (!c.archive_hash) {
      panel.replaceChildren(el("p", { class: "muted" }, "This citation names no known source."));
      $("#check-check").className = "check";
      $("#check-check").replaceChildren();
      return;
    }
    try {
      const entry = await h.archivedText(c.archive_hash);
      const paged = entry.points.includes("\f") || /^page:/.test(target || "");
      const want = c.locator ? c.text : c.support?.text;
      const check = target ? checkLocator(entry.points, target, want) : null;
      const mark = h.renderCanonical(panel, entry.points, check?.span ?? null, paged);
      if (check) {
        h.renderCheck($("#check-check"), target, check, c.status === "moved" ? "the quote is here, not at the cited place" : "the cited text is here");
        if (check.ok && c.status === "moved") $("#check-check").className = "check warn";
      } else {
        $("#check-check").className = "check bad";
        $("#check-check").replaceChildren(el("span", {}, "Not found in this source."));
      }
      h.revealMark(mark);
    } catch (err) {
      h.renderError($("#check-error"), err);
    }
  };

  const renderResult = (env, report) => {
    const d = env.data;
    current = d;
    h.facts($("#check-facts"), [
      ["Citations", String(d.citations.length)],
      ["Supported", String(d.counts.supported)],
      ["Moved", String(d.counts.moved)],
      ["Not found", String(d.counts.not_found)],
      ["Unknown source", String(d.counts.unknown_source)],
    ]);
    h.renderWarnings($("#check-warnings"), env.meta);
    renderReport(report, d.citations);
    const list = $("#check-citations");
    list.replaceChildren(...d.citations.map((c, i) => {
      const st = STATUS[c.status];
      const quoted = c.quote ?? c.sentence;
      return el("li", { class: `citation ${st.tone}`, dataset: { index: i, status: c.status } },
        el("p", { class: "citation-head" },
          el("span", { class: `badge ${st.tone}` }, st.label),
          " ", el("code", { class: "marker" }, c.marker),
          c.cited_locator ? el("span", { class: "muted" }, " cited ", el("code", {}, c.cited_locator)) : null,
          c.locator && c.status === "moved" ? el("span", {}, " → ", el("code", { class: "locator" }, c.locator)) : null),
        el("blockquote", {}, quoted),
        c.support && !c.quote ? el("p", { class: "muted" }, `best support ${Number(c.support.score).toFixed(2)} at `, el("code", {}, c.support.locator)) : null,
        c.archive_hash ? el("button", { type: "button", class: "show", onclick: () => showCitation(i) }, "Show in source") : null);
    }));
    $("#check-result").hidden = false;
    const first = d.citations.findIndex((c) => c.archive_hash);
    if (first >= 0) showCitation(first);
  };

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#check-error").replaceChildren();
    const report = form.elements.report.value;
    const body = { report };
    const sources = parseSourceLines(form.elements.sources.value);
    if (sources.length) body.sources = sources;
    h.setBusy(form, true);
    h.setStatus(form, "Checking…");
    try {
      const env = await h.callJSON("/v1/check", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      renderResult(env, report);
      h.setStatus(form, "");
    } catch (err) {
      $("#check-result").hidden = true;
      h.setStatus(form, "");
      h.renderError($("#check-error"), err);
    } finally {
      h.setBusy(form, false);
    }
  });
}
