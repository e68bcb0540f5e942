/** Routing (docs/behaviour.md §6) lives in main/contract/routing.ts, shared with the renderer's preview. */
export { eventFilterAllows, INTEGRATION_NAME, integrationsAllow, routeMessage, type RouteInput, type RouteResult } from '../contract/routing.js';
