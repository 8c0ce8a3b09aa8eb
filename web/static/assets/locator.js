// Locators and code-point slicing for archived canonical texts.
//
// Every offset digestd reports counts Unicode code points (Python str
// indexing), never UTF-16 units, so texts are sliced here as arrays of code
// points (Array.from), never with String.prototype.slice.

/** PAGE_SEPARATOR joins the pages of a PDF's canonical text. */
export const PAGE_SEPARATOR = "\f";

const LOCATOR = /^(?:page:([1-9][0-9]*):)?char:([0-9]+)-([0-9]+)$/;

/**
 * parseLocator reads "char:S-E" or "page:N:char:S-E" into
 * {start, end, page} (page is null for char: locators), or returns null when
 * the string is not a locator or S > E.
 */
export function parseLocator(locator) {
  const m = LOCATOR.exec(String(locator ?? "").trim());
  if (!m) return null;
  const start = Number(m[2]);
  const end = Number(m[3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start > end) return null;
  return { start, end, page: m[1] ? Number(m[1]) : null };
}

/** codePoints splits a text into its Unicode code points. */
export function codePoints(text) {
  return Array.from(text);
}

/** slicePoints joins the code points [start, end) of a split text. */
export function slicePoints(points, start, end) {
  return points.slice(start, end).join("");
}

/** pageAt is the 1-based page holding code point offset of a split text. */
export function pageAt(points, offset) {
  let page = 1;
  const stop = Math.min(offset, points.length);
  for (let i = 0; i < stop; i++) {
    if (points[i] === PAGE_SEPARATOR) page++;
  }
  return page;
}

/**
 * checkLocator slices a split text at a locator and compares the slice with
 * the expected text (when given). It returns {ok, span, text, page,
 * problems}: span is the parsed locator, text the slice, page the page that
 * holds the span (null for texts without pages), and problems lists every
 * way the locator fails to point at the expected text.
 */
export function checkLocator(points, locator, expected) {
  const span = parseLocator(locator);
  if (!span) {
    return { ok: false, span: null, text: "", page: null, problems: [`"${locator}" is not a locator`] };
  }
  const problems = [];
  if (span.end > points.length) {
    problems.push(`the span ends at ${span.end}, past the text's ${points.length} code points`);
  }
  const text = slicePoints(points, span.start, span.end);
  if (text.includes(PAGE_SEPARATOR)) problems.push("the span crosses a page boundary");
  const paged = points.includes(PAGE_SEPARATOR) || span.page !== null;
  const page = paged ? pageAt(points, span.start) : null;
  if (span.page !== null && span.page !== page) {
    problems.push(`the locator names page ${span.page}, but the span is on page ${page}`);
  }
  if (expected !== undefined && expected !== null && text !== expected) {
    problems.push("the text at the locator differs from the expected text");
  }
  return { ok: problems.length === 0, span, text, page, problems };
}
