/**
 * Several problems of one input as one ApiError: the first names itself and counts the others, which it carries
 * in `problems`. Without zod, so that any face (ingestion included) can use it; schemaErrors.ts re-exports it.
 */
import type { ApiError } from './result.js';

/** How the first problem's message counts the others: `name: must not be empty (and 2 more problems)`. */
export const MORE_PROBLEMS = / \(and \d+ more problems?\)$/;

/** The first of several problems as the error: its message counts the others (`counted`), which it carries in `problems`. */
export function withOthers(first: ApiError, others: readonly ApiError[], counted = others.length): ApiError {
  if (counted === 0) return first;
  return { ...first, message: `${first.message} (and ${counted} more problem${counted > 1 ? 's' : ''})`, problems: [...others] };
}

/** Every problem an error carries, the first as it was before withOthers counted the others. */
export function eachProblem(error: ApiError): ApiError[] {
  const { problems, ...first } = error;
  return problems ? [{ ...first, message: first.message.replace(MORE_PROBLEMS, '') }, ...problems] : [first];
}

