/**
 * listMessages' page from what the history queries read: a page that stopped early keeps every row it found,
 * goes on below where it stopped and says how many are left; one that did not is an ordinary cursor page.
 */
import { describe, expect, it } from 'vitest';
import type { MessageSummary } from '../../../main/contract/messages.js';
import { History, type HistoryOptions } from '../../../main/history/history.js';
import type { PageRead } from '../../../main/store/messageQueries.js';

const row = (id: number) => ({ id }) as MessageSummary;

/** A History whose queries answer `read`, recording what they were asked. */
function historyReading(read: PageRead) {
  const asked: unknown[][] = [];
  const queries = {
    listWithin: (...args: unknown[]) => {
      asked.push(args);
      return read;
    },
  };
  return { history: new History({ queries } as unknown as HistoryOptions), asked };
}

describe('listMessages pages', () => {
  it('a page that stopped early answers what it found, a cursor from where it stopped, and how many are left', () => {
    const { history, asked } = historyReading({ rows: [row(990), row(970)], stopped: { before: 900, left: 899 } });
    expect(history.listMessages({ text: 'quokka', limit: 10, cursor: '1000' })).toEqual({
      ok: true,
      value: { items: [row(990), row(970)], nextCursor: '900', searching: { left: 899 } },
    });
    // One row more than the limit is asked for: it says whether another page follows.
    expect(asked).toEqual([[{ text: 'quokka' }, 1000, 11]]);
  });

  it('an empty page that stopped early still goes on', () => {
    const { history } = historyReading({ rows: [], stopped: { before: 12, left: 11 } });
    expect(history.listMessages({ text: 'quokka' })).toEqual({ ok: true, value: { items: [], nextCursor: '12', searching: { left: 11 } } });
  });

  it('a page that did not stop is a cursor page: the extra row only says that another follows', () => {
    const { history } = historyReading({ rows: [row(9), row(8), row(7)], stopped: null });
    expect(history.listMessages({ limit: 2 })).toEqual({ ok: true, value: { items: [row(9), row(8)], nextCursor: '8' } });
    const last = historyReading({ rows: [row(2)], stopped: null }).history;
    expect(last.listMessages({ limit: 2 })).toEqual({ ok: true, value: { items: [row(2)], nextCursor: null } });
  });
});
