/**
 * Builds real cores over temp dirs and real receivers on port 0, and tears everything down after each test.
 */
import { afterEach } from 'vitest';
import type { MessageDetail } from '../../main/contract/messages.js';
import type { DestinationInput } from '../../main/contract/schemas.js';
import type { Result } from '../../main/contract/result.js';
import { createCore, type Core, type CoreOptions } from '../../main/app/createCore.js';
import { startReceiver, status, type Respond, type TestReceiver } from './receiver.js';
import { tempDir } from './tempDir.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

export function onCleanup(fn: () => Promise<void> | void): void {
  cleanups.push(fn);
}

export function newDataDir(): string {
  const { dir, cleanup } = tempDir();
  onCleanup(cleanup);
  return dir;
}

export function newCore(options: Partial<CoreOptions> = {}): Core {
  const core = createCore({ dataDir: options.dataDir ?? newDataDir(), seed: 42, ...options });
  onCleanup(() => core.close());
  return core;
}

export async function newReceiver(respond: Respond = status(200), tls?: { key: string; cert: string }): Promise<TestReceiver> {
  const rx = await startReceiver(respond, tls);
  onCleanup(() => rx.close());
  return rx;
}

export function must<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** A core with one enabled destination named `d` (plus whatever `destination` says). */
export function newCoreWithDestination(destination: Omit<DestinationInput, 'name'>, options: Partial<CoreOptions> = {}): Core {
  const core = newCore(options);
  must(core.createDestination({ name: 'd', enabled: true, ...destination }));
  return core;
}

/** Sends one track call to the named destination and returns the message id. */
export function sendTrack(core: Core, destination: string, call: Record<string, unknown> = {}): number {
  return must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'Tested', ...call }, destinations: [destination] })).message.id;
}

/** Waits until the message is no longer queued or delivering (no sleeping: it waits on engine events). */
export async function settled(core: Core, id: number): Promise<MessageDetail> {
  for (;;) {
    await core.idle();
    const detail = must(core.getMessage({ id }));
    if (!['queued', 'delivering'].includes(detail.message.status)) return detail;
    await new Promise<void>((resolve) => {
      const off = core.onEvent((e) => {
        if (e.type === 'deliveryUpdated' && e.delivery.messageId === id) {
          off();
          resolve();
        }
      });
    });
  }
}

/** Runs `action`, then waits for the message's next finished round (an engine event, not a sleep). */
export async function afterNextRound(core: Core, id: number, action: () => void): Promise<MessageDetail> {
  const round = new Promise<void>((resolve) => {
    const off = core.onEvent((e) => {
      if (e.type === 'attemptFinished' && e.attempt.messageId === id) {
        off();
        resolve();
      }
    });
  });
  action();
  await round;
  await core.idle();
  return must(core.getMessage({ id }));
}
