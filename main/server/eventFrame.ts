/**
 * Pushed events as WebSocket frames (`{"events": [...], "dropped"?: n}`), encoded so that one event that
 * cannot be serialised never stops the stream, let alone the process. JSON.stringify
 * recurses, so an event carrying JSON nested thousands of levels deep throws; such an event is sent with
 * everything below WIRE_MAX_DEPTH replaced by a marker string (docs/behaviour.md §7), and one that
 * still cannot be encoded is left out and counted in `dropped`. The first time, it is logged.
 */
import type { EngineEvent, EventFrame } from '../contract/events.js';
import { LIMITS } from '../contract/message/messageShapes.js';
import { boundDepth, tooDeepMarker } from '../domain/jsonDepth.js';

/**
 * Levels kept in an event or an API answer that cannot be encoded whole: a call's fields (LIMITS.maxDepth
 * levels) sit at most five levels down (`{ok, value: {items: [{call: ...`), so what is accepted is never cut.
 */
export const WIRE_MAX_DEPTH = LIMITS.maxDepth + 8;

/**
 * JSON text of a value, with JSON below WIRE_MAX_DEPTH replaced by a marker when the value cannot be
 * serialised whole (the typed API's answers); `onProblem` hears why.
 */
export function encodeBounded(value: unknown, onProblem: (e: unknown) => void): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    onProblem(e);
    return JSON.stringify(boundDepth(value, WIRE_MAX_DEPTH));
  }
}

/** An encoder for one stream (it logs its first problem only). */
export function createFrameEncoder(log: (message: string) => void = (m) => console.warn(m)): (frame: EventFrame) => string {
  let logged = false;
  const report = (event: EngineEvent, e: unknown, outcome: string) => {
    if (logged) return;
    logged = true;
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    log(`hookbench: a ${event.type} event could not be encoded for the event stream (${why}); ${outcome}. Later events like it are handled the same way without another message.`);
  };
  return (frame) => {
    try {
      return JSON.stringify(frame);
    } catch {
      // One of the events: encode them one by one.
    }
    const parts: string[] = [];
    let dropped = frame.dropped ?? 0;
    for (const event of frame.events) {
      try {
        parts.push(JSON.stringify(event));
        continue;
      } catch (e) {
        try {
          parts.push(JSON.stringify(boundDepth(event, WIRE_MAX_DEPTH)));
          report(event, e, `it was sent with its JSON below ${WIRE_MAX_DEPTH} levels replaced by "${tooDeepMarker(WIRE_MAX_DEPTH)}"`);
        } catch (again) {
          dropped++;
          report(event, again, 'it was left out and counted in "dropped"');
        }
      }
    }
    return `{"events":[${parts.join(',')}]${dropped ? `,"dropped":${dropped}` : ''}}`;
  };
}
