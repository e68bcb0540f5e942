/** The contract's status and outcome words, with their colours. */
import type { AttemptOutcome, DeliveryStatus } from '../../../main/contract/deliveries';
import type { MessageStatus } from '../../../main/contract/messages';

export type Tone = 'ok' | 'warn' | 'err' | 'info' | 'neutral' | 'violet';

export const STATUS_TONE: Record<MessageStatus | DeliveryStatus, Tone> = {
  delivered: 'ok',
  retrying: 'warn',
  failed: 'err',
  queued: 'info',
  delivering: 'info',
  cancelled: 'neutral',
  filtered: 'violet',
};

export const OUTCOME_TONE: Record<AttemptOutcome, Tone> = {
  success: 'ok',
  timeout: 'warn',
  http_error: 'err',
  network_error: 'err',
  tls_error: 'err',
};

/** Tailwind classes per tone: text, soft background, solid marker. */
export const TONE_CLASS: Record<Tone, { text: string; soft: string; solid: string }> = {
  ok: { text: 'text-ok', soft: 'bg-ok-soft text-ok', solid: 'bg-ok' },
  warn: { text: 'text-warn', soft: 'bg-warn-soft text-warn', solid: 'bg-warn' },
  err: { text: 'text-err', soft: 'bg-err-soft text-err', solid: 'bg-err' },
  info: { text: 'text-info', soft: 'bg-info-soft text-info', solid: 'bg-info' },
  neutral: { text: 'text-neutral', soft: 'bg-neutral-soft text-neutral', solid: 'bg-neutral' },
  violet: { text: 'text-violet', soft: 'bg-violet-soft text-violet', solid: 'bg-violet' },
};
