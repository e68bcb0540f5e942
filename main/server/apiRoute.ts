/**
 * The typed API's route, POST /api/<command> (docs/api.md): who may call it (requests addressed to this
 * machine only, the DNS-rebinding guard, with the Bearer token), reading the one JSON object it takes, and
 * answering what the contract's dispatch says. The event socket and the UI use the same access checks.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isCommandName, unknownCommandMessage } from '../contract/commands.js';
import { dispatch, type CommandHandlers } from '../contract/dispatch.js';
import { IMPORT_LIMITS } from '../contract/importMessages.js';
import { describeValue } from '../contract/message/messageBody.js';
import { unkeptNumber } from '../contract/jsonNumbers.js';
import { jsonProblemWhere, repeatedKey } from '../domain/jsonText.js';
import { firstInvalidUtf8, invalidUtf8Error } from '../domain/utf8.js';
import { charsetNote } from '../ingestion/ingestBody.js';
import { httpStatusOf, readBody, sendJson, sendJsonEncoded, tooLargeError } from './responses.js';

const API_BODY_LIMIT = 4 * 1024 * 1024;

export interface ApiAccess {
  /** Whether the request is addressed to this machine (Host, and Origin when there is one). */
  hostAllowed(req: IncomingMessage): boolean;
  /** Whether `given` is the API token now (compared in constant time). */
  tokenMatches(given: string | null | undefined): boolean;
  /** The Host values to answer to, known once the server listens (port 0 picks the port). */
  listening(host: string, port: number): void;
}

export function apiAccess(token: () => string): ApiAccess {
  let allowedHosts = new Set<string>();
  return {
    hostAllowed(req) {
      const host = (req.headers.host ?? '').toLowerCase();
      if (!allowedHosts.has(host)) return false;
      const origin = req.headers.origin;
      if (origin === undefined) return true;
      try {
        return allowedHosts.has(new URL(origin).host.toLowerCase());
      } catch {
        return false;
      }
    },
    tokenMatches(given) {
      if (!given) return false;
      const a = Buffer.from(given);
      const b = Buffer.from(token());
      return a.length === b.length && timingSafeEqual(a, b);
    },
    listening(host, port) {
      allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `${host}:${port}`].map((h) => h.toLowerCase()));
    },
  };
}

/** Answers one request under /api/: access, the command's name and method, its JSON body, then dispatch. */
export async function handleApi(req: IncomingMessage, res: ServerResponse, path: string, access: ApiAccess, handlers: CommandHandlers): Promise<void> {
  if (!access.hostAllowed(req)) return sendJson(res, 403, { ok: false, error: { code: 'unauthorized', message: 'the API answers only requests to this machine (Host/Origin check)' } });
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
  if (!access.tokenMatches(bearer)) {
    return sendJson(res, 401, { ok: false, error: { code: 'unauthorized', message: 'missing or wrong API token: send "Authorization: Bearer <token>" (see server.json)' } });
  }
  const name = path.slice('/api/'.length);
  if (!isCommandName(name)) return sendJson(res, 404, { ok: false, error: { code: 'not_found', message: unknownCommandMessage(name) } });
  if (req.method !== 'POST') return sendJson(res, 405, { ok: false, error: { code: 'invalid_input', message: `POST /api/${name} with a JSON object (got ${(req.method ?? '').slice(0, 20)})` } }, { allow: 'POST' });
  // An import carries a whole export's text: its limit is what one export writes (IMPORT_LIMITS).
  const limit = name === 'importMessages' ? IMPORT_LIMITS.requestBytes : API_BODY_LIMIT;
  const body = await readBody(req, limit);
  if (typeof body === 'string') return sendJson(res, 400, { ok: false, error: tooLargeError(req, limit) });
  let input: unknown = {};
  if (body.length > 0) {
    const badByte = firstInvalidUtf8(body);
    if (badByte >= 0) {
      // A charset label explains such bytes, as it does on /v1.
      const refusal = invalidUtf8Error(body, badByte);
      return sendJson(res, 400, { ok: false, error: { code: 'invalid_json', ...refusal, message: `${refusal.message}${charsetNote(req.headers['content-type'] ?? null)}` } });
    }
    const text = body.toString('utf8');
    try {
      input = JSON.parse(text);
    } catch (e) {
      return sendJson(res, 400, { ok: false, error: { code: 'invalid_json', message: `body: invalid JSON (${(e as Error).message})` } });
    }
    const overflow = unkeptNumber(text, input);
    if (overflow) return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', ...overflow } });
    // JSON.parse keeps the last of a key given twice: the first value would be dropped without a word.
    const repeated = repeatedKey(text);
    if (repeated) return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: `body: ${jsonProblemWhere(repeated)}: ${repeated.problem}` } });
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return sendJson(res, 400, { ok: false, error: { code: 'invalid_input', message: `body: must be one JSON object (got ${describeValue(input)})` } });
  }
  const result = await dispatch(handlers, name, input);
  return sendJsonEncoded(req, res, result.ok ? 200 : httpStatusOf(result.error), result);
}
