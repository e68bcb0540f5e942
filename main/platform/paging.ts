/**
 * Cursor paging shared by every list: a cursor is the last id of the previous page, so pages stay
 * stable while new rows arrive (newest first, new rows have higher ids). Inputs are already validated by
 * the command table (main/contract/commands.ts); only the cursor's meaning is checked here.
 */
import type { Page } from '../contract/messages.js';
import { err, ok, type ApiError, type Result } from '../contract/result.js';

export const DEFAULT_PAGE_SIZE = 50;

export function pageArgs(input: { cursor?: string | null | undefined; limit?: number | undefined }): Result<{ limit: number; beforeId: number | undefined }> {
  const limit = input.limit ?? DEFAULT_PAGE_SIZE;
  if (!input.cursor) return ok({ limit, beforeId: undefined });
  const beforeId = Number(input.cursor);
  if (!/^\d{1,16}$/.test(input.cursor) || !Number.isSafeInteger(beforeId)) {
    return err({ code: 'invalid_input', field: 'cursor', message: `cursor: "${input.cursor.slice(0, 40)}" is not a cursor from this list (use the nextCursor of the previous page)` });
  }
  return ok({ limit, beforeId });
}

/** `rows` was fetched with limit + 1: the extra row only says that another page follows. */
export function toPage<T extends { id: number }>(rows: T[], limit: number): Page<T> {
  const more = rows.length > limit;
  if (more) rows.pop();
  return { items: rows, nextCursor: more ? String(rows.at(-1)!.id) : null };
}

/** A list small enough to answer whole, as a page like every other list. */
export function wholePage<T>(items: T[]): Page<T> {
  return { items, nextCursor: null };
}

/** The not_found answer for an id that names nothing. */
export function notFound(what: string, id: unknown): { ok: false; error: ApiError } {
  return err({ code: 'not_found', message: `no ${what} with id ${JSON.stringify(id)}`, field: 'id' });
}
