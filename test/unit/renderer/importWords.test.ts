/** The import toast says what became of the copies: sent now, held by the pause or a destination that is off, or routed nowhere. */
import { describe, expect, it } from 'vitest';
import { whatHappens } from '../../../renderer/src/features/history/importWords';

const queued = (deliveries: number) => ({ status: 'queued', deliveries });
const filtered = { status: 'filtered', deliveries: 0 };

describe('what an import says became of its copies', () => {
  it('sent now, counting deliveries, and naming the ones routed nowhere', () => {
    expect(whatHappens([queued(3), queued(1)], false)).toBe('4 deliveries are being sent now');
    expect(whatHappens([queued(1), filtered], false)).toBe('1 delivery is being sent now; 1 went nowhere (filtered: no destination here takes it)');
  });

  it('held while forwarding is paused', () => {
    expect(whatHappens([queued(2)], true)).toBe('forwarding is paused: 2 deliveries wait, queued, until you resume it');
  });

  it('routed nowhere at all: not "being delivered"', () => {
    expect(whatHappens([filtered, filtered, filtered], false)).toBe('they went nowhere: filtered, no destination here takes them');
    expect(whatHappens([filtered], true)).toBe('it went nowhere: filtered, no destination here takes it');
  });

  it('held by a destination that is off, named, and the rest sent', () => {
    const held = (deliveries: number, names: string[]) => ({ status: 'queued', deliveries, held: names });
    expect(whatHappens([held(1, ['hookbench send'])], false)).toBe("'hookbench send' is disabled: 1 delivery to it waits until it is enabled");
    expect(whatHappens([held(2, ['Orders']), held(2, ['Orders'])], false)).toBe("2 deliveries are being sent now; 'Orders' is disabled: 2 deliveries to it wait until it is enabled");
    expect(whatHappens([held(2, ['A', 'B'])], true)).toBe("'A', 'B' are disabled: 2 deliveries to them wait until they are enabled");
  });
});
