import type { AttemptRecord, ClockState, DeliveryRecord, MessageRecord, MessageStatus } from './models.js';
import type { CaptureRecord } from './receiver.js';

/** Pushed events, past tense (SPEC-NOTES §9). A discriminated union on `type`. */
export type EngineEvent =
  | { type: 'messageAccepted'; message: MessageRecord }
  | {
      type: 'attemptStarted';
      deliveryId: number;
      messageId: number;
      attemptNumber: number;
      webhookIndex: number;
      url: string;
      startedAt: number;
    }
  | { type: 'attemptFinished'; attempt: AttemptRecord }
  | { type: 'deliveryUpdated'; delivery: DeliveryRecord; messageStatus: MessageStatus }
  | { type: 'clockAdvanced'; clock: ClockState; byMs: number }
  | { type: 'requestCaptured'; capture: CaptureRecord };

export type EngineEventType = EngineEvent['type'];
export type EventOf<K extends EngineEventType> = Extract<EngineEvent, { type: K }>;
