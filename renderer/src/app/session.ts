/**
 * Starts a session: the transport's events flow through the pump into the stores, and every (re)connect
 * reloads what may have been missed.
 */
import type { ApiClient } from '../api/client';
import { dropFirstCalls } from '../api/firstRequests';
import { setApi } from '../api/instance';
import { readAgainRegistered } from '../api/readAgain';
import { startRefresh } from '../api/refresh';
import { useCheck } from '../stores/check';
import { useCatalog } from '../stores/catalog';
import { useConnection } from '../stores/connection';
import { useDetail } from '../stores/detail';
import { useEngine } from '../stores/engine';
import { createEventPump } from '../stores/eventPump';
import { afterPaint, useLive } from '../stores/live';
import { useReceiver } from '../stores/receiver';
import { useSecrets } from '../stores/secrets';
import type { View } from '../lib/hashRoute';

const OVERVIEW_POLL_MS = 5000;
/** How long the catch-up after the first open waits at most for the first answers before it reads again. */
export const CATCH_UP_BOUND_MS = 2000;

/**
 * Settles once the stores hold what the frame and the landing screen show first (the engine's overview, with
 * the top bar's clock and counters; the catalog, which names each row's source; Live's first page when Live
 * is the landing screen), or after `boundMs` at most. Rendering then, the first frame shows them together:
 * the answers arrive in tasks of their own, and one that came a task after the first render (measured: the
 * counters 56 ms after the rows) was a frame of dashes, or of rows whose source said none.
 */
export function firstAnswersIn(view: View, boundMs: number): Promise<void> {
  const ready = () => useEngine.getState().overview !== null && useCatalog.getState().loaded && (view !== 'live' || useLive.getState().loaded);
  return new Promise((resolve) => {
    if (ready()) return resolve();
    const done = () => {
      clearTimeout(timer);
      for (const off of offs) off();
      resolve();
    };
    const check = () => {
      if (ready()) done();
    };
    const timer = setTimeout(done, boundMs);
    const offs = [useEngine.subscribe(check), useCatalog.subscribe(check), useLive.subscribe(check)];
  });
}

export function startSession(client: ApiClient): () => void {
  setApi(client);
  /** Reads again what is shown; `whole`: Live's whole window (events were missed), else its first page. */
  const readAgain = (whole: boolean) => {
    void useLive.getState().load(whole ? { resync: true } : { newest: true });
    void useEngine.getState().refresh();
    void useCatalog.getState().load();
    void useDetail.getState().reload();
    if (useReceiver.getState().loaded) void useReceiver.getState().load();
    if (useCheck.getState().runsLoaded) void useCheck.getState().loadRuns();
    const shownRun = useCheck.getState().run;
    if (shownRun) void useCheck.getState().open(shownRun.id);
    readAgainRegistered();
  };
  // After time away, a secret shown may have changed: shown again only when asked. (Not on the catch-up after
  // the first open: a secret revealed meanwhile was read after it.)
  const resync = () => {
    useSecrets.getState().forget();
    readAgain(true);
  };
  const pump = createEventPump((events) => {
    useLive.getState().apply(events);
    useEngine.getState().apply(events);
    useDetail.getState().apply(events);
    useReceiver.getState().apply(events);
    useCheck.getState().apply(events);
    // Another face (the CLI, a config file, another window) changed a list: one reload per frame.
    if (events.some((e) => e.type === 'catalogChanged')) void useCatalog.getState().load();
  }, resync);
  const offEvents = client.subscribe((batch) => pump.push(batch));

  let everOpen = false;
  const onState = (state: ReturnType<typeof client.transport.connectionState>) => {
    useConnection.setState({ state, kind: client.transport.kind, ...(state === 'open' ? { since: Date.now() } : {}) });
    if (state !== 'open') return;
    // A later open means events were missed while away. The first one too may have missed some: the page
    // sent its first requests as the socket opened (api/firstRequests.ts), and the server could answer them
    // before it had the socket, so an event in between (a round that finished) never came. Once those answers
    // are in, the ones nobody took are let go, and what they showed is read again (Live's first page: the rest
    // of its list is read after the first rows are painted). After the first paint: asked as the first render
    // began, these requests delayed the first rows.
    if (everOpen) resync();
    else
      void firstAnswersIn('live', CATCH_UP_BOUND_MS)
        .then(afterPaint)
        .then(() => {
          dropFirstCalls();
          readAgain(false);
        });
    everOpen = true;
  };
  onState(client.transport.connectionState());
  const offState = client.transport.onConnectionChange(onState);

  // All at once: the page sent these calls before the app loaded (api/firstRequests.ts), and their answers serve here.
  // Counters such as "failed in the last hour" change with time alone: the engine's are read again every few seconds.
  void useLive.getState().load();
  const stopOverview = startRefresh(() => useEngine.getState().refresh(), { everyMs: OVERVIEW_POLL_MS });
  void useCatalog.getState().load();

  return () => {
    stopOverview();
    offEvents();
    offState();
    pump.close();
    client.transport.close();
  };
}
