/**
 * The requests the engine is sending to the mock receiver's URLs right now (Engine → expectRequest), so that
 * the request that arrives with exactly those bytes and headers is recorded as that attempt's capture; and those
 * hookbench check sends directly (expectCheckRequest), recorded as the check's.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { CaptureAttempt } from '../contract/receiver/receiver.js';

/** Who is sending a request to one of this receiver's URLs right now: the engine's attempt, or hookbench check directly. */
/** `load`: a request of the check's capacity run, answered by the script but not captured (thousands of them would push out the user's captures). */
export type Sender = { attempt: CaptureAttempt; sentBy: null } | { attempt: null; sentBy: 'check'; load?: boolean };

interface Expected {
  body: Buffer;
  /**
   * The headers the request carries, names in lower case (the engine's attempts): the same message sent to one
   * endpoint by two destinations is the same body, told apart by its signature and static headers. Null: the
   * body alone tells (the check's own requests).
   */
  headers: Record<string, string> | null;
  sender: Sender;
}

export class ExpectedRequests {
  /** By full URL: the rounds in flight to it, matched to requests by their exact bytes. */
  private readonly expected = new Map<string, Expected[]>();

  /** `body` (with `headers`, when given) is about to be sent to `url` (an engine's attempt, or the check directly); returns what to call once it has been answered. */
  expect(url: string, body: Buffer, sender: Sender, headers: Record<string, string> | null = null): () => void {
    const entry: Expected = { body, headers: headers && lowerCaseNames(headers), sender };
    const list = this.expected.get(url);
    if (list) list.push(entry);
    else this.expected.set(url, [entry]);
    return () => this.forget(url, entry);
  }

  /**
   * The attempt that sent these bytes and headers to this URL, taken off the list (each attempt sends one
   * request). A body cut short (`truncated`) matches an attempt of `size` bytes that starts with it. Requests
   * identical in every byte and header are told apart by nothing they carry: each is taken in the order announced.
   */
  take(url: string, body: Buffer, size: number, truncated: boolean, arrived: IncomingHttpHeaders): Sender | null {
    if (this.expected.size === 0) return null;
    const entry = this.expected
      .get(url)
      ?.find((e) => (truncated ? e.body.length === size && e.body.subarray(0, body.length).equals(body) : e.body.equals(body)) && carries(arrived, e.headers));
    if (!entry) return null;
    this.forget(url, entry);
    return entry.sender;
  }

  private forget(url: string, entry: Expected): void {
    const list = this.expected.get(url);
    if (!list) return;
    const i = list.indexOf(entry);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.expected.delete(url);
  }
}

function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  // Trimmed as HTTP parsers read a value (white space around it is not part of it): a static header may be configured with some.
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = value.trim();
  return out;
}

/** Whether the request arrived with every one of these headers, each with its value. */
function carries(arrived: IncomingHttpHeaders, headers: Record<string, string> | null): boolean {
  if (!headers) return true;
  for (const [name, value] of Object.entries(headers)) {
    const got = arrived[name];
    if ((Array.isArray(got) ? got.join(', ') : got) !== value) return false;
  }
  return true;
}
