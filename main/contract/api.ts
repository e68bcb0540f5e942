/**
 * The typed API: the `Commands` type every transport (Electron IPC, HTTP, the client library, the renderer)
 * derives its call types from, itself derived from the command table (./commands.ts), and the input and
 * output types several commands share.
 */
import type { COMMANDS } from './commands.js';
import type { DeliveryRecord } from './deliveries.js';
import type { MessageFilter, MessageRecord } from './messages.js';
import type { Source } from './sources.js';
import type { Result } from './result.js';

/** Filters of listMessages; all optional, combined with AND. Pages run newest first. */
export interface ListMessagesInput extends MessageFilter {
  cursor?: string | null | undefined;
  limit?: number | undefined;
}

export const EXPORT_FORMATS = ['json', 'har', 'curl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportMessagesInput {
  /** The messages listMessages would list with these filters (newest first)… */
  filter?: Omit<ListMessagesInput, 'cursor' | 'limit'> | undefined;
  /** …or exactly these messages (a selection). */
  ids?: number[] | undefined;
  format: ExportFormat;
  /** Shared secrets, write keys, the API token and credential-like headers are redacted unless this is true. */
  includeSecrets?: boolean | undefined;
}

export interface ExportMessagesOutput {
  text: string;
  mimeType: string;
  fileExtension: string;
  /** Messages the file holds. */
  messages: number;
  /** Messages asked for that HAR and cURL hold nothing of, since they list attempts: never sent (filtered, still waiting). 0 for JSON. */
  notSent: number;
  /** More messages matched than one export holds (the newest were exported). */
  truncated: boolean;
  /**
   * What held it back: `count`, more than EXPORT_LIMIT messages matched; `size`, the newest that fit in
   * EXPORT_TEXT_BYTES bytes were taken (what one import takes); null when nothing was left out.
   */
  truncatedBy: 'count' | 'size' | null;
}

/** A list that needs no paging still answers as a page (nextCursor null), like every list. */
export type NoInput = Record<string, never>;

export interface UpdateSourceInput {
  id: string;
  patch: { kind?: Source['kind'] | undefined; writeKey?: string | undefined };
}

export interface SendMessageOutput {
  message: MessageRecord;
  deliveries: DeliveryRecord[];
}

export interface UseOneSecretOutput {
  /** Which side took the other's secret. */
  changed: 'receiver' | 'destination';
  destinationId: string;
  receiver: string;
  /** The first 8 hex digits of SHA-256 of the secret both now use. */
  fingerprint: string;
}

/** A command's declaration in the command table (./commands.ts), with its types. */
type Declared<K extends CommandName> = NonNullable<(typeof COMMANDS)[K]['types']>;

export type CommandName = keyof typeof COMMANDS;
/** What a caller gives: the schema's input type (or the stricter type its declaration `takes`). */
export type CommandInput<K extends CommandName> = Declared<K>['input'];
/** The value of a successful answer. */
export type CommandValue<K extends CommandName> = Declared<K>['value'];
/** The answer, once it is there. */
export type CommandOutput<K extends CommandName> = Result<CommandValue<K>>;
/** What calling the command returns: the answer, or a promise of it for the commands declared `returnsLater`. */
export type CommandAnswer<K extends CommandName> = Declared<K>['later'] extends true ? Promise<CommandOutput<K>> : CommandOutput<K>;

/**
 * The whole typed API, one method per command of the table: every transport derives its call types from it.
 * A command whose input may be empty may be called without one.
 */
export type Commands = {
  [K in CommandName]: Record<never, never> extends CommandInput<K> ? (input?: CommandInput<K>) => CommandAnswer<K> : (input: CommandInput<K>) => CommandAnswer<K>;
};
