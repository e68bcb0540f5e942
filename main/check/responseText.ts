/**
 * A response body as the report quotes it: one line, at most `max` characters. A framework's HTML error
 * page (express's 413 "PayloadTooLargeError", a proxy's 502 page) is quoted by its text, not its markup:
 * a detail is one line, and the words the author would search for are in the text.
 */
import type { CheckExchange } from '../contract/check/check.js';

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };

function isHtml(contentType: string | undefined, body: string): boolean {
  return /^\s*text\/html\b/i.test(contentType ?? '') || /^\s*<(!doctype html|html)\b/i.test(body);
}

function htmlText(html: string): string {
  return html
    .replace(/<(head|script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(nbsp|amp|lt|gt|quot|#39|#x27);/gi, (_m, name: string) => ENTITIES[name.toLowerCase()]!);
}

/** The body of `ex`'s response as one line (HTML reduced to its text), cut at `max` characters with "…"; '' when none. */
export function responseText(ex: CheckExchange, max: number): string {
  const r = ex.response;
  if (!r) return '';
  const contentType = Object.entries(r.headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const text = (isHtml(contentType, r.body) ? htmlText(r.body) : r.body).replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
