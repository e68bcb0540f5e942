/**
 * One round of one delivery: its webhooks resolved, its request sent to each through the forwarder, the
 * decision on what comes next, and the RoundResult the scheduler records; and the events a recorded round
 * announces.
 */
import type { EngineEvent } from '../contract/events.js';
import type { AttemptRecord } from '../contract/deliveries.js';
import type { Destination, Webhook } from '../contract/destinations.js';
import { deliveryRecord } from '../contract/message/messageSummary.js';
import type { Result } from '../contract/result.js';
import { decideAfterRound, type WebhookResult } from '../domain/deliveryDecision.js';
import { jitterUnit } from '../domain/retryPolicy.js';
import type { ClaimedDelivery, RoundResult, StoredRound } from '../store/store.js';
import { storedHeaders } from '../store/deliveryRows.js';
import type { Clock, MonotonicTime } from '../platform/clock.js';
import { FAST_FORWARD_AFTER_MS, type Jump } from './clockJump.js';
import type { Forwarder, RoundRequest } from './forwarders.js';
import type { InFlightWindow } from './inFlightWindow.js';
import type { SendResult } from './webhookRequests.js';
import { prepareRequest } from './preparedRequest.js';

/**
 * The engine is about to send a round's request to `url` (the mock receiver links the capture to the attempt):
 * `headers` gives the headers that request carries, asked for only when the URL is the receiver's. The answer is
 * called once the round has finished; null: not a receiver URL.
 */
export type ExpectRequest = (
  url: string,
  body: string,
  attempt: { messageRef: number; deliveryId: number; destinationName: string; attemptNumber: number; webhookIndex: number },
  headers: () => Record<string, string>,
) => (() => void) | null;

/** What a round asks of the engine that plays it. */
export interface RoundContext {
  clock: Clock;
  /** Pacing time: the round's time from hand-over to result, for the window. */
  time: MonotonicTime;
  forwarder: Forwarder;
  seed: number;
  destination: (id: string) => Destination | undefined;
  resolveUrl: (url: string) => Result<string>;
  expectRequest?: ExpectRequest | undefined;
  emit: (event: EngineEvent) => void;
  listening: () => boolean;
  window: InFlightWindow;
  /** Attempts out on the network now: `by` more, or fewer when negative. */
  attemptsOut: (by: number) => void;
  /** All clock resets together (ms): a round out across a reset moves its next due time back by what it missed. */
  shifted: () => number;
}

/** A round and the destination it went to, as the scheduler records it. */
export interface PlayedRound {
  round: RoundResult;
  destination: Pick<Destination, 'id' | 'name'>;
}

/** The result of a round to a webhook that could not be resolved to an address. */
function unresolvable(why: string): SendResult {
  return {
    outcome: 'network_error',
    retryable: true,
    permanentReason: null,
    statusCode: null,
    error: why,
    retryAfterMs: null,
    durationMs: 0,
    requestHeaders: '{}',
    signature: null,
    responseHeaders: null,
    responseBody: null,
    responseTruncated: false,
  };
}

/** A round that could not run (not a failed attempt): nothing was attempted, and the delivery runs again at `dueAt`. */
export function requeuedRound(delivery: ClaimedDelivery, now: number, dueAt: number): RoundResult {
  return {
    deliveryId: delivery.id,
    messageId: delivery.messageId,
    attempts: [],
    status: delivery.attempts === 0 ? 'queued' : 'retrying',
    reason: null,
    attemptsMade: delivery.attempts,
    firstAttemptAt: delivery.firstAttemptAt,
    nextAttemptAt: dueAt,
    pendingUrls: delivery.pendingUrls,
    updatedAt: now,
    siblings: delivery.siblings,
  };
}

/** A webhook of the destination, with its place in the destination's list (the attempt's webhookIndex). */
interface Target {
  webhook: Webhook;
  index: number;
}

/** The round of a delivery whose destination is gone or has no webhooks: nothing is attempted, and it ends. */
function noDestinationRound(claimed: ClaimedDelivery, destination: Destination | undefined, startedAt: number): PlayedRound {
  return {
    round: {
      deliveryId: claimed.id,
      messageId: claimed.messageId,
      attempts: [],
      status: destination ? 'failed' : 'cancelled',
      reason: destination ? 'no webhooks configured' : 'destination deleted',
      attemptsMade: claimed.attempts,
      firstAttemptAt: claimed.firstAttemptAt,
      nextAttemptAt: null,
      pendingUrls: null,
      updatedAt: startedAt,
      siblings: claimed.siblings,
    },
    destination: { id: claimed.destinationId, name: destination?.name ?? '' },
  };
}

/**
 * The webhooks this round goes to. Retry only the webhooks that failed retryably, as they are configured now;
 * if the configuration no longer has any of them, the round goes to every current webhook.
 */
function roundTargets(destination: Destination, claimed: ClaimedDelivery): readonly Target[] {
  let all = allTargets.get(destination.webhooks);
  if (!all) allTargets.set(destination.webhooks, (all = destination.webhooks.map((webhook, index) => ({ webhook, index }))));
  if (!claimed.pendingUrls) return all;
  const pending = new Set(claimed.pendingUrls);
  const still = all.filter((t) => pending.has(t.webhook.url));
  return still.length ? still : all;
}

/** Every webhook of a destination as a target, by the destination's webhooks array (the same for every round). */
const allTargets = new WeakMap<readonly Webhook[], Target[]>();

/** Announces each attempt of the round as it starts (only when someone listens). */
function announceAttempts(ctx: RoundContext, claimed: ClaimedDelivery, destinationId: string, targets: readonly Target[], attemptNumber: number, startedAt: number): void {
  if (!ctx.listening()) return;
  for (const t of targets) {
    ctx.emit({
      type: 'attemptStarted',
      deliveryId: claimed.id,
      messageId: claimed.messageId,
      destinationId,
      attemptNumber,
      webhookIndex: t.index,
      url: t.webhook.url,
      startedAt,
    });
  }
}

/** The targets resolved to addresses: the webhooks a request goes to, and the receivers told to expect one. */
interface ResolvedTargets {
  /** Each target's address, in order; null when every one resolved to its own URL (the common case, kept for no round). */
  resolved: Result<string>[] | null;
  /** The webhooks a request goes to, in order. */
  reachable: readonly Webhook[];
  expecting: (() => void)[] | null;
}

/**
 * Receiver references resolve now; one that cannot (the receiver is gone or not listening) fails like an
 * unreachable host, without a request.
 */
function resolveTargets(ctx: RoundContext, claimed: ClaimedDelivery, destination: Destination, targets: readonly Target[], attemptNumber: number): ResolvedTargets {
  let resolved: Result<string>[] | null = null;
  let reachable: Webhook[] | null = null;
  let expecting: (() => void)[] | null = null;
  for (let i = 0; i < targets.length; i++) {
    const { webhook, index } = targets[i]!;
    const r = ctx.resolveUrl(webhook.url);
    if (!resolved && (!r.ok || r.value !== webhook.url)) {
      // The first target that resolved to another address (or to none): from here on each is kept.
      resolved = targets.slice(0, i).map((t) => ({ ok: true, value: t.webhook.url }) as const);
      reachable = targets.slice(0, i).map((t) => t.webhook);
    }
    if (resolved) resolved.push(r);
    if (!r.ok) continue;
    const sent = r.value === webhook.url ? webhook : { ...webhook, url: r.value };
    if (reachable) reachable.push(sent);
    // The headers too (the signature, the static ones): two destinations sending the same message to one endpoint send the same body.
    const headers = () => prepareRequest(sent, destination.sharedSecret, Buffer.from(claimed.body, 'utf8')).headers;
    const done = ctx.expectRequest?.(r.value, claimed.body, { messageRef: claimed.messageId, deliveryId: claimed.id, destinationName: destination.name, attemptNumber, webhookIndex: index }, headers);
    if (done) (expecting ??= []).push(done);
  }
  // The destination's own array when the round goes to all its webhooks as configured: the forwarder's thread
  // then receives one copy of it for every round of a batch (forwarders.ts, RoundOnWire).
  const webhooks = reachable ?? (targets.length === destination.webhooks.length ? destination.webhooks : targets.map((t) => t.webhook));
  return { resolved, reachable: webhooks, expecting };
}

/** What the round did and when: its start and finish, the attempt's number and the delivery's first attempt. */
interface RoundTimes {
  attemptNumber: number;
  firstAttemptAt: number;
  startedAt: number;
  finishedAt: number;
  /** How far clock resets moved waiting deliveries back while this round was out (ms). */
  shift: number;
}

/** The round as the scheduler records it: its attempts, and the decision on what comes next. */
function roundResult(ctx: RoundContext, claimed: ClaimedDelivery, destination: Destination, targets: readonly Target[], resolved: Result<string>[] | null, sent: SendResult[], times: RoundTimes): RoundResult {
  const { attemptNumber, firstAttemptAt, startedAt, finishedAt, shift } = times;
  const results: WebhookResult[] = sent.map((s, i) => ({
    url: targets[i]!.webhook.url,
    outcome: s.outcome,
    retryable: s.retryable,
    permanentReason: s.permanentReason,
    retryAfterMs: s.retryAfterMs,
  }));
  const decision = decideAfterRound({
    results,
    policy: destination.retry,
    attemptsMade: attemptNumber,
    firstAttemptAt,
    finishedAt,
    unit: jitterUnit(ctx.seed, claimed.id, attemptNumber),
  });
  return {
    deliveryId: claimed.id,
    messageId: claimed.messageId,
    attempts: sent.map((s, i) => ({
      deliveryId: claimed.id,
      messageId: claimed.messageId,
      destinationId: destination.id,
      attemptNumber,
      webhookIndex: targets[i]!.index,
      url: resolved && resolved[i]!.ok ? resolved[i]!.value : targets[i]!.webhook.url,
      outcome: s.outcome,
      retryable: s.retryable,
      statusCode: s.statusCode,
      error: s.error,
      startedAt,
      finishedAt,
      durationMs: s.durationMs,
      requestHeaders: s.requestHeaders,
      signature: s.signature,
      responseHeaders: s.responseHeaders,
      responseBody: s.responseBody,
      responseTruncated: s.responseTruncated,
    })),
    status: decision.status,
    reason: decision.reason,
    attemptsMade: attemptNumber,
    firstAttemptAt: firstAttemptAt - shift,
    nextAttemptAt: decision.status === 'retrying' ? decision.nextAttemptAt - shift : null,
    pendingUrls: decision.status === 'retrying' ? decision.pendingUrls : null,
    pastWindow: decision.status === 'failed' ? decision.pastWindow : undefined,
    updatedAt: finishedAt,
    siblings: claimed.siblings,
  };
}

/**
 * Plays one round, started at `startedAt` (engine time: now, or its due time when a jump plays it), and calls
 * `done` with it once its results are in, or `failed` when it could not run (never both, once). It finishes at
 * its start plus the real time it took, so a round a jump played keeps its own place in engine time.
 * Callbacks, not promises: thousands of rounds a second pass here.
 */
export function playRound(ctx: RoundContext, claimed: ClaimedDelivery, startedAt: number, jump: Jump | null, done: (played: PlayedRound) => void, failed: (e: unknown) => void): void {
  const { clock } = ctx;
  const destination = ctx.destination(claimed.destinationId);
  const attemptNumber = claimed.attempts + 1;
  const firstAttemptAt = claimed.firstAttemptAt ?? startedAt;
  const shiftedAtStart = ctx.shifted();
  if (!destination || destination.webhooks.length === 0) {
    // After the caller's turn, as a round with requests would be.
    const played = noDestinationRound(claimed, destination, startedAt);
    queueMicrotask(() => done(played));
    return;
  }

  const targets = roundTargets(destination, claimed);
  announceAttempts(ctx, claimed, destination.id, targets, attemptNumber, startedAt);
  const to = resolveTargets(ctx, claimed, destination, targets, attemptNumber);
  // For the window: the round's time from hand-over to result (pacing time).
  const sentAt = ctx.time.now();
  const realStart = clock.realNow();
  // Attempts are out on the network from here until the forwarder answers, whatever it answers.
  ctx.attemptsOut(targets.length);
  // Whatever the forwarder does, the round ends once: answered, or refused.
  let over = false;
  const settled = (): void => {
    over = true;
    ctx.attemptsOut(-targets.length);
    if (to.expecting) for (const expected of to.expecting) expected();
  };
  const answered = (replies: SendResult[]): void => {
    if (over) return;
    settled();
    let played: PlayedRound;
    try {
      if (jump) jump.attemptsPlayed += targets.length;
      if (replies.length > 0) {
        // For the window: the round's time from hand-over to result, and its slowest request's own time.
        let slowest = 0;
        for (const reply of replies) if (reply.durationMs > slowest) slowest = reply.durationMs;
        ctx.window.timed(ctx.time.now() - sentAt, slowest);
      }
      let next = 0;
      const sent = to.resolved ? to.resolved.map((r) => (r.ok ? replies[next++]! : unresolvable(r.error.message))) : replies;
      const finishedAt = startedAt + Math.max(0, clock.realNow() - realStart);
      // A reset while this round was out moved every waiting delivery back by its offset: this one follows.
      const shift = ctx.shifted() - shiftedAtStart;
      played = { round: roundResult(ctx, claimed, destination, targets, to.resolved, sent, { attemptNumber, firstAttemptAt, startedAt, finishedAt, shift }), destination };
    } catch (e) {
      failed(e);
      return;
    }
    done(played);
  };
  const refused = (e: unknown): void => {
    if (over) return;
    settled();
    failed(e);
  };
  const request: RoundRequest = {
    webhooks: to.reachable,
    body: claimed.body,
    secret: destination.sharedSecret,
    timeoutMs: destination.timeoutMs,
    caFile: destination.caFile,
    jump: jump !== null,
    fastForwardMs: jump?.fastForward ? FAST_FORWARD_AFTER_MS : null,
  };
  try {
    if (ctx.forwarder.sendRoundThen) ctx.forwarder.sendRoundThen(request, answered, refused);
    else ctx.forwarder.sendRound(request).then(answered, refused);
  } catch (e) {
    refused(e);
  }
  // The round has its body (the request holds it until it crosses); nothing after this reads the claimed
  // delivery's, and a body kept for as long as the round is out outlives collections for nothing.
  claimed.body = '';
}

/** What a recorded round announces: each attempt finished, then the delivery as it now stands. */
export function roundEvents({ round, attemptIds, messageStatus }: StoredRound, destination: Pick<Destination, 'id' | 'name'>): EngineEvent[] {
  const events: EngineEvent[] = round.attempts.map((a, i) => {
    const attempt: AttemptRecord = {
      ...a,
      id: attemptIds[i]!,
      requestHeaders: storedHeaders(a.requestHeaders),
      responseHeaders: a.responseHeaders === null ? null : storedHeaders(a.responseHeaders),
    };
    return { type: 'attemptFinished', attempt };
  });
  const delivery = deliveryRecord({
    id: round.deliveryId,
    messageId: round.messageId,
    destinationId: destination.id,
    destinationName: destination.name,
    status: round.status,
    reason: round.reason,
    attempts: round.attemptsMade,
    firstAttemptAt: round.firstAttemptAt,
    nextAttemptAt: round.nextAttemptAt,
    pendingUrls: round.pendingUrls ?? [],
    updatedAt: round.updatedAt,
    pastWindow: round.pastWindow ?? null,
  });
  events.push({ type: 'deliveryUpdated', delivery, messageStatus });
  return events;
}
