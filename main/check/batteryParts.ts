/**
 * What the battery's checks share: its test user and track call, scenarios parsed as users' are, and where a
 * redirect points.
 */
import type { CheckExchange } from '../contract/check/check.js';
import { checkScenarioSchema, type CheckScenarioInput } from '../contract/check/checkInputs.js';
import { maskUrl } from '../domain/secrets.js';

export const USER = 'hookbench-check-user';

/** A scenario of the battery, parsed with the user scenarios' own schema (so the two formats cannot drift). */
export function scenario(input: CheckScenarioInput) {
  return checkScenarioSchema.parse(input);
}

export const track = (extra: Record<string, unknown> = {}) => ({ userId: USER, event: 'Hookbench Check', properties: { plan: 'pro', amount: 42 }, ...extra });

/** The absolute URL a redirect names (its Location resolved against the checked URL), or null without one. */
export function redirectTarget(ex: CheckExchange, url: string): string | null {
  const location = ex.response?.headers['location'];
  if (!location) return null;
  try {
    return maskUrl(new URL(location, url).toString());
  } catch {
    return location;
  }
}

/** A redirect's fix, naming where it points when its Location says so. */
export const redirectFix = (target: string | null): string =>
  `Point the destination at ${target ?? 'the final URL (the one the redirect names)'}, or answer 2xx at this one.`;
