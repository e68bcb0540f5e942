import { afterEach, describe, expect, it, vi } from 'vitest';
import { firstAnswersIn } from '../../../renderer/src/app/session';
import { useCatalog } from '../../../renderer/src/stores/catalog';
import { useEngine } from '../../../renderer/src/stores/engine';
import { useLive } from '../../../renderer/src/stores/live';

type Overview = NonNullable<ReturnType<typeof useEngine.getState>['overview']>;

/** Whether the promise has settled, after the microtasks queued so far. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('the first render waits for the first answers', () => {
  afterEach(() => {
    vi.useRealTimers();
    useEngine.setState({ overview: null });
    useCatalog.setState({ loaded: false });
    useLive.setState({ loaded: false });
  });

  it('settles once the overview, the catalog and (landing on Live) its first page are in, whatever their order', async () => {
    vi.useFakeTimers();
    const waiting = firstAnswersIn('live', 250);
    useLive.setState({ loaded: true });
    useCatalog.setState({ loaded: true });
    expect(await settled(waiting)).toBe(false);
    useEngine.setState({ overview: {} as Overview });
    expect(await settled(waiting)).toBe(true);
  });

  it('does not wait for Live\'s page on another screen, and at once when everything is in already', async () => {
    useEngine.setState({ overview: {} as Overview });
    useCatalog.setState({ loaded: true });
    expect(await settled(firstAnswersIn('history', 250))).toBe(true);
    expect(await settled(firstAnswersIn('live', 250))).toBe(false);
  });

  it('waits no longer than its bound when an answer does not come (a slow or failing server)', async () => {
    vi.useFakeTimers();
    const waiting = firstAnswersIn('live', 250);
    vi.advanceTimersByTime(249);
    expect(await settled(waiting)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await settled(waiting)).toBe(true);
  });
});
