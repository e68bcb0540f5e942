/**
 * Importing an export (JSON lines or HAR, as exportMessages writes them) to replay its messages through
 * intake (docs/behaviour.md §1 builds each body again). The limits keep one import to one API request.
 */
import { z } from 'zod';
import { IMPORT_LIMITS } from './apiLimits.js';
import { utf8Length } from './message/messageBody.js';
import type { MessageStatus } from './messages.js';
import { wrongType } from './zodWords.js';

export { IMPORT_LIMITS };


const importLimit = IMPORT_LIMITS.textBytes.toLocaleString('en-US');

export const importMessagesInputSchema = z.strictObject({
  /** The export's text: JSON lines (format json) or a HAR 1.2 document. */
  text: z
    .string({ error: wrongType('must be a string (the text of a JSON or HAR export)') })
    .min(1, 'must not be empty (the text of a JSON or HAR export)')
    .max(IMPORT_LIMITS.textChars, { error: `must be at most ${importLimit} bytes of UTF-8, what one export holds (export fewer messages)` })
    .refine((text) => utf8Length(text) <= IMPORT_LIMITS.textBytes, {
      error: (issue) => `must be at most ${importLimit} bytes of UTF-8, what one export holds (export fewer messages); it is ${utf8Length(issue.input as string).toLocaleString('en-US')}`,
    }),
  /** Route every message through this source (name or id); by default each goes to its original source or destinations, where they exist here. */
  source: z.string({ error: wrongType('must be a string (a source name or id)') }).min(1).max(200).optional(),
  /** Keep each message's messageId (receivers that de-duplicate will drop them); by default each gets a new one. */
  keepMessageIds: z.boolean({ error: wrongType('must be true or false') }).optional(),
});
export type ImportMessagesInput = z.input<typeof importMessagesInputSchema>;

export interface ImportedMessage {
  /** The new message. */
  id: number;
  /** Its id in the workbench it was exported from, when the export says. */
  importedFrom: number | null;
  status: MessageStatus;
  deliveries: number;
  /** The disabled destinations among its deliveries', by name: those wait, queued, until the destination is enabled. */
  held: string[];
}

export interface ImportMessagesOutput {
  format: 'json' | 'har';
  imported: ImportedMessage[];
}
