/**
 * The requests the engine is sending to the mock receiver's URLs right now (Engine → expectRequest), so that
 * the request that arrives with exactly those bytes is recorded as that attempt's capture.
 */
import type { CaptureAttempt } from '../contract/receiver/receiver.js';

/** A request the engine is sending to one of this receiver's URLs right now. */
interface Expected {
  body: Buffer;
  attempt: CaptureAttempt;
}

export class ExpectedRequests {
  /** By full URL: the rounds in flight to it, matched to requests by their exact bytes. */
  private readonly expected = new Map<string, Expected[]>();

  /** The engine is about to send `body` to `url` for this attempt; returns what to call once the attempt has finished. */
  expect(url: string, body: Buffer, attempt: CaptureAttempt): () => void {
    const entry: Expected = { body, attempt };
    const list = this.expected.get(url);
    if (list) list.push(entry);
    else this.expected.set(url, [entry]);
    return () => this.forget(url, entry);
  }

  /**
   * The attempt that sent these bytes to this URL, taken off the list (each attempt sends one request). A body
   * cut short (`truncated`) matches an attempt of `size` bytes that starts with it.
   */
  take(url: string, body: Buffer, size: number, truncated: boolean): CaptureAttempt | null {
    if (this.expected.size === 0) return null;
    const entry = this.expected.get(url)?.find((e) => (truncated ? e.body.length === size && e.body.subarray(0, body.length).equals(body) : e.body.equals(body)));
    if (!entry) return null;
    this.forget(url, entry);
    return entry.attempt;
  }

  private forget(url: string, entry: Expected): void {
    const list = this.expected.get(url);
    if (!list) return;
    const i = list.indexOf(entry);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.expected.delete(url);
  }
}
