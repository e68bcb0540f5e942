import { describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { must, newCoreWithDestination, newReceiver, sendTrack, settled } from '../../helpers/harness.js';

describe('pause and start', () => {
  it('holds accepted messages while paused, finishes the round in flight, and delivers the rest on start', async () => {
    // The first request is held open until the test answers it; later ones are answered at once.
    let answerFirst: (() => void) | null = null;
    const rx = await newReceiver((req, res: ServerResponse) => {
      if (rx.captured.length === 1) answerFirst = () => res.writeHead(200).end();
      else res.writeHead(200).end();
    });
    const core = newCoreWithDestination({ url: rx.url });

    const inFlight = sendTrack(core, 'd');
    await rx.waitFor(1);
    core.pause();
    const held = sendTrack(core, 'd');
    answerFirst!();
    await core.idle(); // resolves: the round in flight is recorded although forwarding is paused

    expect(must(core.getMessage({ id: inFlight })).message.status).toBe('delivered');
    expect(must(core.getMessage({ id: held })).message.status).toBe('queued');
    expect(rx.captured).toHaveLength(1);

    core.start();
    const detail = await settled(core, held);
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts).toHaveLength(1);
    expect(rx.captured).toHaveLength(2);
  });

  it('does not send a round twice when started again while one is in flight', async () => {
    let answerFirst: (() => void) | null = null;
    const rx = await newReceiver((req, res: ServerResponse) => {
      answerFirst = () => res.writeHead(200).end();
    });
    const core = newCoreWithDestination({ url: rx.url });
    const id = sendTrack(core, 'd');
    await rx.waitFor(1);
    core.pause();
    core.start(); // the delivery is `delivering`: it must not be queued again as if a crash had interrupted it
    answerFirst!();
    const detail = await settled(core, id);
    expect(detail.message.status).toBe('delivered');
    expect(detail.attempts).toHaveLength(1);
    expect(rx.captured).toHaveLength(1);
  });
});
