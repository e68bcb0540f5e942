import { describe, expect, it } from 'vitest';
import { createCore } from '../../../main/app/createCore.js';
import { must, newDataDir, newReceiver, onCleanup, sendTrack, settled } from '../../helpers/harness.js';

describe('core lifecycle', () => {
  it('closes at once right after it was created, and the data dir opens again and delivers', async () => {
    const dataDir = newDataDir();
    const rx = await newReceiver();
    for (let i = 0; i < 3; i++) {
      // Its background thread has not even started: it is not waited for.
      const core = createCore({ dataDir, seed: 1 });
      await core.close();
    }
    const core = createCore({ dataDir, seed: 1 });
    onCleanup(() => core.close());
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const detail = await settled(core, sendTrack(core, 'd'));
    expect(detail.message.status).toBe('delivered');
    expect(rx.captured).toHaveLength(1);
  });

  it('closes after delivering, keeping everything it recorded', async () => {
    const dataDir = newDataDir();
    const rx = await newReceiver();
    const first = createCore({ dataDir, seed: 1 });
    must(first.createDestination({ name: 'd', enabled: true, url: rx.url }));
    const ids = [sendTrack(first, 'd'), sendTrack(first, 'd')];
    for (const id of ids) await settled(first, id);
    await first.close();

    const again = createCore({ dataDir, seed: 1 });
    onCleanup(() => again.close());
    for (const id of ids) {
      const detail = must(again.getMessage({ id }));
      expect(detail.message.status).toBe('delivered');
      expect(detail.attempts).toHaveLength(1);
    }
  });
});
