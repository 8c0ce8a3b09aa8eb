// Reading the several-sources box into POST /v1/digests source specs.

/** MAX_SOURCES is the most sources one POST /v1/digests takes. */
export const MAX_SOURCES = 50;

const URL_LINE = /^https?:\/\/\S+$/i;
const SEPARATOR_LINE = /^\s*---\s*$/;
const HTML_START = /^\s*(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i;

/**
 * parseSources turns the box's text into source specs, each
 * {id, url} | {id, text} | {id, html}, with ids source-1, source-2, … in
 * order. Blocks are separated by lines holding only "---"; a block whose
 * every non-empty line is an http(s) URL gives one URL source a line, a
 * block that starts like an HTML document is HTML, and any other block is
 * one text. Empty blocks are skipped.
 */
export function parseSources(input) {
  const blocks = [[]];
  for (const line of String(input ?? "").replace(/\r\n?/g, "\n").split("\n")) {
    if (SEPARATOR_LINE.test(line)) blocks.push([]);
    else blocks[blocks.length - 1].push(line);
  }
  const specs = [];
  for (const lines of blocks) {
    const filled = lines.map((l) => l.trim()).filter((l) => l !== "");
    if (filled.length === 0) continue;
    if (filled.every((l) => URL_LINE.test(l))) {
      for (const url of filled) specs.push({ url });
      continue;
    }
    const body = lines.join("\n").trim();
    specs.push(HTML_START.test(body) ? { html: body } : { text: body });
  }
  return specs.map((s, i) => ({ id: `source-${i + 1}`, ...s }));
}

/** describeSource is a short label for a source spec: its URL or its first words. */
export function describeSource(spec) {
  if (!spec) return "";
  if (spec.url) return spec.url;
  const body = (spec.text ?? spec.html ?? "").replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  const points = Array.from(body);
  return points.length > 90 ? points.slice(0, 90).join("") + "…" : body;
}
