// Reading the several-sources box into POST /v1/digests source specs.

/** MAX_SOURCES is the most sources one POST /v1/digests takes. */
export const MAX_SOURCES = 50;

const URL_LINE = /^https?:\/\/\S+$/i;
const SEPARATOR_LINE = /^\s*---\s*$/;
const HTML_START = /^\s*(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i;

/**
 * parseSources turns the box's text into source specs, each
 * {id, url} | {id, text} | {id, html}, with ids source-1, source-2, … in
 * order. Blocks are separated by lines holding only "---". In a block that
 * holds an http(s) URL line, every non-empty line is a source of its own
 * (a URL line a URL, any other line a text); a block without URLs is one
 * source, HTML when it starts like an HTML document, else text. Empty blocks
 * are skipped.
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
    if (filled.some((l) => URL_LINE.test(l))) {
      for (const l of filled) specs.push(URL_LINE.test(l) ? { url: l } : { text: l });
      continue;
    }
    const body = lines.join("\n").trim();
    specs.push(HTML_START.test(body) ? { html: body } : { text: body });
  }
  return specs.map((s, i) => ({ id: `source-${i + 1}`, ...s }));
}

/**
 * fileSource reads an uploaded file into a source spec with the file's name
 * as its id: a PDF as pdf_base64, an HTML file as html, a .txt file (or one
 * without a known extension that decodes as UTF-8) as text, and any other
 * file (office documents, EPUB, Markdown, CSV, JSON, notebooks, feeds, XML, images) as file_base64 with its
 * file_name, so the service tells its kind.
 */
export async function fileSource(file) {
  const name = file.name || "file";
  const bytes = new Uint8Array(await file.arrayBuffer());
  const isPDF = file.type === "application/pdf" || /\.pdf$/i.test(name) ||
    (bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46);
  const base64 = () => {
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  };
  if (isPDF) return { id: name, pdf_base64: base64() };
  if (file.type === "text/html" || /\.x?html?$/i.test(name)) return { id: name, html: new TextDecoder().decode(bytes) };
  if (/\.(docx|pptx|xlsx|odt|odp|ods|epub|md|markdown|csv|json|jsonl|ndjson|ipynb|rss|atom|xml|png|jpe?g|tiff?|webp)$/i.test(name) || (bytes[0] === 0x50 && bytes[1] === 0x4b) ||
    /^image\/(png|jpeg|tiff|webp)$/.test(file.type)) {
    return { id: name, file_base64: base64(), file_name: name };
  }
  return { id: name, text: new TextDecoder().decode(bytes) };
}

/** describeSource is a short label for a source spec: its URL or its first words. */
export function describeSource(spec) {
  if (!spec) return "";
  if (spec.url) return spec.url;
  if (spec.pdf_base64) return `${spec.id} (PDF)`;
  if (spec.file_base64) return `${spec.id} (file)`;
  const body = (spec.text ?? spec.html ?? "").replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  const points = Array.from(body);
  return points.length > 90 ? points.slice(0, 90).join("") + "…" : body;
}
