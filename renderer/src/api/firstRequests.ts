/**
 * The first screen's requests, sent before the app's code has loaded. index.html runs this module first, as
 * its own small chunk (renderer/firstScreenPlugin.ts puts it there): as soon as the page is parsed it reads
 * the token and the route, opens the event socket, sends what the landing screen and the top bar ask for
 * first (a screenful of Live, getOverview, getClock, the catalog; History's first page, a message, a check
 * run) and preloads that screen's chunks, all while the app's own code is still on its way.
 *
 * The app then asks for the same things as it always does: the API client answers a call that was sent
 * here with its answer (takeFirstCall, once, while fresh), and the HTTP transport adopts the socket with
 * the frames it received meanwhile (takeFirstSocket). main.tsx imports this module too, so it is the same
 * instance; nothing here imports React or a store.
 */
import type { CommandName } from '../../../main/contract/api';
import type { HookbenchBridge } from '../../../main/contract/bridge';
import type { Result } from '../../../main/contract/result';
import { HISTORY_PAGE, parseFilterQuery } from '../lib/historyQuery';
import { parseHash, type Route } from '../lib/hashRoute';
import { eventsUrl, postCommand } from './httpCall';
import { takeToken } from './token';

/** Rows of Live's first page: what fits on a screen. The rest of the list follows once it is painted. */
export const LIVE_FIRST_PAGE = 50;
/** Previous runs the Check screen lists. */
export const CHECK_RUNS_PAGE = 50;
/** An answer asked for here serves the app only this soon after the page started: later, the app asks again. */
export const FIRST_CALLS_FRESH_MS = 10_000;
/** The element of index.html that lists each screen's chunks (written by renderer/firstScreenPlugin.ts). */
export const SCREEN_CHUNKS_ID = 'hookbench-screen-chunks';

export interface FirstCall {
  name: CommandName;
  input: Record<string, unknown>;
}

/** What the landing route's screen and the frame (top bar, catalog) ask for first, most urgent first. */
export function firstCallsOf(route: Route): FirstCall[] {
  const calls: FirstCall[] = [];
  if (route.view === 'live') calls.push({ name: 'listMessages', input: { limit: LIVE_FIRST_PAGE } });
  if (route.view === 'history') calls.push({ name: 'listMessages', input: { ...parseFilterQuery(route.query).filter, limit: HISTORY_PAGE } });
  if (route.messageId !== null) calls.push({ name: 'getMessage', input: { id: route.messageId } });
  if (route.view === 'check') {
    // `#/check/<run>` opens that run's report (features/check/CheckView.tsx reads the route the same way).
    const run = route.sub[0];
    if (run && /^\d+$/.test(run)) calls.push({ name: 'getCheckRun', input: { id: Number(run) } });
    calls.push({ name: 'listCheckRuns', input: { limit: CHECK_RUNS_PAGE } });
  }
  calls.push({ name: 'getOverview', input: {} }, { name: 'getClock', input: {} });
  calls.push({ name: 'listDestinations', input: {} }, { name: 'listSources', input: {} }, { name: 'listReceivers', input: {} });
  return calls;
}

/** The chunks the route's screen needs beyond the entry's (renderer/firstScreenPlugin.ts), by screen: a view, or `detail`. */
export function chunksOf(route: Route, screens: Record<string, readonly string[]>): string[] {
  const keys = [route.view, ...(route.messageId !== null ? ['detail'] : [])];
  return [...new Set(keys.flatMap((k) => screens[k] ?? []))];
}

/** A call's identity: its name and its input with the keys in order, so `{a, b}` and `{b, a}` are the same call. */
export function callKey(name: string, input: unknown): string {
  const sorted = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([k, v]) => [k, sorted(v)]),
        )
      : value;
  return `${name} ${JSON.stringify(sorted(input ?? {}))}`;
}

export interface FirstRequestsEnv {
  location: Location;
  storage: Storage;
  fetch: typeof fetch;
  WebSocket: typeof WebSocket;
  /** The desktop app's preload bridge, when there is one. */
  bridge: HookbenchBridge | undefined;
  /** Where the screen's chunks are preloaded; null: nowhere. */
  document: Document | null;
  now(): number;
}

interface EarlySocket {
  url: string;
  socket: WebSocket;
  /** What it received before the transport took it (MessageEvent data). */
  frames: unknown[];
}

const calls = new Map<string, Promise<Result<unknown>>>();
let early: EarlySocket | null = null;
let startedAt = 0;
let clock: () => number = () => Date.now();

/**
 * Sends the landing route's first calls (and, in a browser, opens the event socket first, so the events that
 * follow what the calls read are not missed). Without a token nothing is sent: the app shows how to get one.
 */
export function startFirstRequests(env: FirstRequestsEnv): void {
  calls.clear();
  early = null;
  clock = env.now;
  startedAt = env.now();
  const route = parseHash(env.location.hash);
  let send: (call: FirstCall) => Promise<Result<unknown>>;
  if (env.bridge) {
    const bridge = env.bridge;
    send = (call) => bridge.call(call.name, call.input).catch((e: unknown) => ({ ok: false, error: { code: 'internal', message: `${call.name}: ${e instanceof Error ? e.message : String(e)}` } }));
  } else {
    const token = takeToken(env.location, env.storage);
    if (!token) return;
    const baseUrl = new URL('.', env.location.href).toString();
    const url = eventsUrl(baseUrl, token);
    const socket = new env.WebSocket(url);
    const frames: unknown[] = [];
    socket.onmessage = (message: MessageEvent) => frames.push(message.data);
    early = { url, socket, frames };
    send = (call) => postCommand(env.fetch, baseUrl, token, call.name, call.input);
  }
  for (const call of firstCallsOf(route)) calls.set(callKey(call.name, call.input), send(call));
  if (env.document) preloadChunks(env.document, route);
}

/** The answer to this call if the page asked for it at start, once, while fresh; null: ask the server. */
export function takeFirstCall(name: string, input: unknown): Promise<Result<unknown>> | null {
  if (calls.size === 0) return null;
  if (clock() - startedAt > FIRST_CALLS_FRESH_MS) {
    // Answers nobody took in time are let go.
    calls.clear();
    return null;
  }
  const key = callKey(name, input);
  const call = calls.get(key);
  calls.delete(key);
  return call ?? null;
}

/**
 * Lets go of the answers nobody has taken yet: they were read before the event socket was open, and a call
 * made from now on must read the server again (app/session.ts, the catch-up after the first open).
 */
export function dropFirstCalls(): void {
  calls.clear();
}

/** The event socket the page opened at start, with the frames it received since, once; null when there is none still usable. */
export function takeFirstSocket(url: string): { socket: WebSocket; frames: unknown[] } | null {
  const taken = early;
  early = null;
  if (!taken || taken.url !== url || taken.socket.readyState > taken.socket.OPEN) {
    taken?.socket.close();
    return null;
  }
  taken.socket.onmessage = null;
  return { socket: taken.socket, frames: taken.frames };
}

/** modulepreload links for the route's screen, as Vite's own preloading makes them (so it does not fetch them twice). */
function preloadChunks(document: Document, route: Route): void {
  let screens: Record<string, string[]>;
  try {
    screens = JSON.parse(document.getElementById(SCREEN_CHUNKS_ID)?.textContent ?? '{}') as Record<string, string[]>;
  } catch {
    return;
  }
  const listed = new Set([...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => l.href));
  for (const file of chunksOf(route, screens)) {
    const href = new URL(file, document.baseURI).href;
    if (listed.has(href)) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.as = 'script';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
}

if (typeof window !== 'undefined' && typeof document !== 'undefined') {
  startFirstRequests({
    location: window.location,
    storage: window.sessionStorage,
    fetch: (input, init) => fetch(input, init),
    WebSocket,
    bridge: window.hookbench,
    document,
    now: () => Date.now(),
  });
}
