/** The Check form's capacity fields checked before anything is sent (CheckForm), each problem by its field. */
import { CAPACITY_CHECK_ID, CHECK_LIMITS } from '../../../../main/contract/check/checkInputs';
import { formatCount } from '../../lib/format';
import { parseOnly } from '../../stores/check';

/**
 * What is wrong with the capacity fields, each by its field (null: fine); both empty is no capacity run.
 * Only these checks naming the capacity check without seconds is refused by the server too: said here, under
 * that field, in the form's words rather than the API's.
 */
export function capacityProblem(seconds: string, rate: string, only = ''): { only: string | null; capacity: string | null; expectRate: string | null } {
  const s = seconds.trim();
  const onlyCapacity = s === '' && (parseOnly(only) ?? []).includes(CAPACITY_CHECK_ID) ? `${CAPACITY_CHECK_ID} measures only with Capacity (seconds) given: give the seconds, or leave it out` : null;
  const r = rate.trim();
  const max = CHECK_LIMITS.maxCapacitySeconds;
  const capacity = s === '' ? null : /^\d+$/.test(s) && Number(s) >= 1 && Number(s) <= max ? null : `A whole number of seconds from 1 to ${max} (got ${s})`;
  const expectRate = r === '' ? null : s === '' ? 'Give the capacity seconds too: the rate is judged on a capacity run' : /^\d+(\.\d+)?$/.test(r) && Number(r) > 0 && Number(r) <= CHECK_LIMITS.maxExpectRate ? null : `Deliveries per second, more than 0 and at most ${formatCount(CHECK_LIMITS.maxExpectRate)} (got ${r})`;
  return { only: onlyCapacity, capacity, expectRate };
}
