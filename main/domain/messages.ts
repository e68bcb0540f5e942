/**
 * The engine's message builder: main/contract/message/messageBody.ts (shared with the renderer's preview), with the
 * body's bytes as a Buffer and sizes measured by Buffer.byteLength.
 */
import { buildMessageBody, type BuildOptions, type BuiltBody } from '../contract/message/messageBody.js';
import type { MessageType } from '../contract/message/messageShapes.js';
import type { Result } from '../contract/result.js';

export type { BuildOptions } from '../contract/message/messageBody.js';

export interface BuiltMessage extends BuiltBody {
  /** `JSON.stringify(body)` as UTF-8: the one serialisation. */
  bytes: Buffer;
}

const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

export function buildMessage(type: MessageType, call: Record<string, unknown>, options: BuildOptions): Result<BuiltMessage> {
  // A caller that measured the size already (sizeChecked) has its options go as they are, not copied for every
  // call: the copy was a noticeable share of this builder's time. Ingestion calls
  // buildMessageBody itself and encodes every body of a request into one buffer (ingestion/ingestPrepare.ts).
  const built = buildMessageBody(type, call, options.sizeChecked || options.byteLength ? options : { byteLength, ...options });
  if (!built.ok) return built;
  // Field by field: a rest-and-spread copy cost a measurable share of every message's intake.
  const b = built.value;
  return {
    ok: true,
    value: { type: b.type, messageId: b.messageId, userId: b.userId, anonymousId: b.anonymousId, event: b.event, body: b.body, json: b.json, bytes: Buffer.from(b.json, 'utf8') },
  };
}
