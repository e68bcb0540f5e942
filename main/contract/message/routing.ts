/**
 * docs/behaviour.md §6: which destinations a message goes to. Pure, shared with the renderer (the composer
 * shows where a call would go, and why not); the caller supplies the candidates
 * (enabled destinations connected to the message's source).
 */
import type { Destination } from '../destinations.js';

/** The destination type's name in an integrations object (the spec's "Webhooks"). */
export const INTEGRATION_NAME = 'Webhooks';

export interface RouteInput {
  type: string;
  event: string | null;
  integrations: unknown;
}

export interface RouteResult {
  targets: Destination[];
  /** Why nothing was routed (null when something was). */
  filteredReason: string | null;
}

/** JavaScript's truthiness, as the SDKs' own routing reads integrations (`1`, `"yes"`, an object). */
const truthy = (v: unknown): boolean => Boolean(v);

/**
 * The integrations object routing reads, or null when it reads nothing in it (not an object, or one without
 * keys, as most SDK calls send): every destination takes the call then. Ingestion hands over only this.
 */
export function routedIntegrations(integrations: unknown): Record<string, unknown> | null {
  if (typeof integrations !== 'object' || integrations === null || Array.isArray(integrations)) return null;
  for (const key in integrations) if (Object.hasOwn(integrations, key)) return integrations as Record<string, unknown>;
  return null;
}

/** Whether the integrations object lets a destination receive the call, and if not, why. */
export function integrationsAllow(integrations: unknown, destinationName: string): string | null {
  const map = routedIntegrations(integrations);
  if (map === null) return null;
  // Keys are case sensitive. The destination's own name is the most specific; "Webhooks" names them all.
  for (const key of [destinationName, INTEGRATION_NAME]) {
    if (!(key in map)) continue;
    if (truthy(map[key])) return null;
    if (map[key] === false) return `integrations.${key}=false`;
  }
  if (map['All'] === false) return `integrations.All=false and ${INTEGRATION_NAME} not enabled`;
  return null;
}

export function eventFilterAllows(destination: Pick<Destination, 'name' | 'filters'>, type: string, event: string | null): string | null {
  if (type !== 'track' || event === null) return null;
  const { allowEvents, blockEvents } = destination.filters;
  if (blockEvents.includes(event)) return `event "${event}" is blocked by destination "${destination.name}"`;
  if (allowEvents.length > 0 && !allowEvents.includes(event)) {
    return `event "${event}" is not in the allow list of destination "${destination.name}"`;
  }
  return null;
}

export function routeMessage(input: RouteInput, candidates: readonly Destination[], noCandidatesReason: string): RouteResult {
  if (candidates.length === 0) return { targets: [], filteredReason: noCandidatesReason };
  const targets: Destination[] = [];
  // Made only when a destination refuses (this runs for every call; most go everywhere they can).
  let why: Set<string> | null = null;
  for (const d of candidates) {
    const refused = integrationsAllow(input.integrations, d.name) ?? eventFilterAllows(d, input.type, input.event);
    if (refused) (why ??= new Set()).add(refused);
    else targets.push(d);
  }
  return { targets, filteredReason: targets.length ? null : [...(why ?? [])].join('; ') };
}
