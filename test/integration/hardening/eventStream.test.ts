/**
 * The WebSocket flusher serialised pushed events with one JSON.stringify, so an event
 * carrying deeply nested JSON threw inside a timer and took serve down while a client listened. The deep
 * event is emitted through the core directly here: ingestion and sendMessage refuse such calls now (defect
 * 3), but a frame that cannot be serialised must not crash whatever its origin.
 */
import { internalsOf } from '../../../main/app/createCore.js';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../../main/contract/events.js';
import type { MessageSummary } from '../../../main/contract/messages.js';
import { startServe } from '../../../main/cli/commands/serve.js';
import { tooDeepMarker } from '../../../main/domain/jsonDepth.js';
import { WIRE_MAX_DEPTH } from '../../../main/server/eventFrame.js';
import { deepTrackCallJson } from '../../helpers/deepJson.js';
import { openEventSocket } from '../../helpers/eventSocket.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

const silentIO = { stdout: () => undefined, stderr: () => undefined };

/**
 * Events carry summaries (no call or body) since the command-table change, so no event of the engine's
 * own carries user JSON this deep today; the flusher must survive one anyway (the net under every event).
 */
function deepEvent(id: number): EngineEvent {
  const message: MessageSummary & { call: Record<string, unknown> } = {
    id,
    messageId: `deep-${id}`,
    type: 'track',
    sourceId: null,
    userId: 'u1',
    anonymousId: null,
    event: 'Deep',
    status: 'queued',
    statusReason: null,
    receivedAt: 0,
    replayOf: null,
    bytes: 2,
    attempts: 0,
    webhookAttempts: 0,
    nextAttemptAt: null,
    destinationIds: [],
    deliveries: [],
    call: JSON.parse(deepTrackCallJson(5000)) as Record<string, unknown>,
  };
  return { type: 'messageAccepted', message };
}

const callOf = (message: MessageSummary): unknown => (message as MessageSummary & { call?: unknown }).call;

describe('the event stream', () => {
  it('an event too deep to serialise is replaced by a marker (logged once); the stream and serve carry on', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    onCleanup(() => warn.mockRestore());
    const dir = newDataDir();
    const running = await startServe({ data: join(dir, 'data'), host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, silentIO);
    onCleanup(() => running.stop());
    const ws = await openEventSocket(running.info.url, running.info.token);
    const seen: EngineEvent[] = [];
    const waiters: (() => void)[] = [];
    ws.on('message', (data) => {
      seen.push(...(JSON.parse(String(data)) as { events: EngineEvent[] }).events);
      waiters.splice(0).forEach((w) => w());
    });
    const until = async (what: () => boolean) => {
      while (!what()) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    const accepted = (messageId: string) => seen.find((e): e is Extract<EngineEvent, { type: 'messageAccepted' }> => e.type === 'messageAccepted' && e.message.messageId === messageId);

    const emit = (event: EngineEvent) => internalsOf(running.core).emit(event);
    emit(deepEvent(1));
    await until(() => accepted('deep-1') !== undefined);
    emit(deepEvent(2));
    must(await running.core.sendMessage({ type: 'track', call: { userId: 'u2', event: 'After', messageId: 'after-1' } }));
    await until(() => accepted('after-1') !== undefined && accepted('deep-2') !== undefined);

    // The deep part is replaced; the rest of the event is intact.
    const first = accepted('deep-1')!.message;
    expect(first).toMatchObject({ id: 1, type: 'track', event: 'Deep' });
    expect(JSON.stringify(callOf(first))).toContain(tooDeepMarker(WIRE_MAX_DEPTH));
    expect(accepted('after-1')!.message).toMatchObject({ userId: 'u2', event: 'After', messageId: 'after-1' });
    // Logged once, naming what happened.
    const logged = warn.mock.calls.filter((c) => String(c[0]).includes('event stream'));
    expect(logged).toHaveLength(1);
    expect(String(logged[0]![0])).toContain('messageAccepted');

    // serve still answers.
    const res = await request(`${running.info.url}/api/getClock`, { method: 'POST', headers: { authorization: `Bearer ${running.info.token}` }, body: '{}' });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });
});

function must<T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
