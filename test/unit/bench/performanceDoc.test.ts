import { describe, expect, it } from 'vitest';
import { mergeRows, readStored, renderPerformanceDoc, type BenchRun } from '../../../bench/performanceDoc.js';

const run = (at: string, command: string): BenchRun => ({ at, command, node: 'v24.21.0', platform: 'linux x64', cores: 2, cpuModel: 'Test CPU', loadStart: [1.5, 1.2, 1], loadEnd: [2, 1.4, 1.1] });

describe('docs/performance.md, written by npm run bench', () => {
  it('says each figure with its target and verdict, and the machine, Node and load of the run', () => {
    const doc = renderPerformanceDoc(
      mergeRows(readStored(null), run('2026-11-27T00:30:00.000Z', 'npm run bench'), [
        { name: 'engine ÷ raw', value: 0.67, target: 0.6, kind: 'min', pass: true },
        { name: 'live: JS heap MB', value: 151, target: 150, kind: 'max', pass: false },
        { name: 'engine: deliveries/s', value: 12_913.4 },
      ]),
    );
    expect(doc).toContain('| engine ÷ raw | 0.67 | ≥ 0.60 | pass | latest |\n');
    expect(doc).toContain('| live: JS heap MB | 151 | < 150 | **miss** | latest |\n');
    expect(doc).toContain('| engine: deliveries/s | 12,913 | latest |\n');
    expect(doc).toContain('| latest | 2026-11-27 00:30 | `npm run bench` | 2 cores (Test CPU), Node v24.21.0, linux x64 | 1.50/1.20/1.00 → 2.00/1.40/1.10 |\n');
    expect(doc).not.toContain('*earlier*');
  });

  it("a run replaces every earlier row of a contender it measured, a figure renamed or no longer written included", () => {
    const before = mergeRows(readStored(null), run('2026-11-23T10:00:00.000Z', 'npm run bench -- --only raw,engine,latency'), [
      { name: 'engine: deliveries/s', value: 20_000 },
      { name: 'engine: CPU µs a delivery on its worker threads', value: 23 },
      { name: 'engine-latency: CPU µs a delivery on its worker threads', value: 38 },
      { name: 'engine ÷ raw', value: 0.7, target: 0.8, kind: 'min', pass: false },
    ]);
    const after = mergeRows(before, run('2026-11-27T00:30:00.000Z', 'npm run bench -- --only raw,engine'), [
      { name: 'engine: deliveries/s', value: 21_000 },
      { name: "engine: CPU µs a delivery on the forwarder's thread", value: 21 },
    ]);
    expect(after.rows.map((r) => [r.name, r.run.slice(0, 10)])).toEqual([
      ['engine: deliveries/s', '2026-11-27'],
      ["engine: CPU µs a delivery on the forwarder's thread", '2026-11-27'],
      // Another contender's rows, and a check this run did not make, stay.
      ['engine-latency: CPU µs a delivery on its worker threads', '2026-11-23'],
      ['engine ÷ raw', '2026-11-23'],
    ]);
  });

  it('a partial run (--only) replaces its own rows and keeps the others, marked with the earlier run', () => {
    const full = renderPerformanceDoc(
      mergeRows(readStored(null), run('2026-11-23T10:00:00.000Z', 'npm run bench'), [
        { name: 'engine ÷ raw', value: 0.67, target: 0.6, kind: 'min', pass: true },
        { name: 'time travel: 100 ÷ 1 messages, honest (wall)', value: 1.1, target: 1.5, kind: 'max', pass: true },
      ]),
    );
    const partial = renderPerformanceDoc(
      mergeRows(readStored(full), run('2026-11-27T00:30:00.000Z', 'npm run bench -- --only time-travel --time-travel-messages 20'), [
        { name: 'time travel: 20 ÷ 1 messages, honest (wall)', value: 1.05, target: 1.5, kind: 'max', pass: true },
      ]),
    );
    expect(partial).toContain('| engine ÷ raw | 0.67 | ≥ 0.60 | pass | earlier (2026-11-23) |\n');
    expect(partial).toContain('| time travel: 20 ÷ 1 messages, honest (wall) | 1.05 | < 1.50 | pass | latest |\n');
    expect(partial).not.toContain('100 ÷ 1 messages');
    expect(partial).toContain('Rows marked *earlier* come from an earlier run');
    expect(partial).toContain('| latest | 2026-11-27 00:30 | `npm run bench -- --only time-travel --time-travel-messages 20` |');
    expect(partial).toContain('| earlier (2026-11-23) | 2026-11-23 10:00 | `npm run bench` |');

    // A later full run replaces every row: the earlier runs leave the file.
    const again = renderPerformanceDoc(
      mergeRows(readStored(partial), run('2026-11-28T09:00:00.000Z', 'npm run bench'), [
        { name: 'engine ÷ raw', value: 0.7, target: 0.6, kind: 'min', pass: true },
        { name: 'time travel: 100 ÷ 1 messages, honest (wall)', value: 1.2, target: 1.5, kind: 'max', pass: true },
      ]),
    );
    expect(again).not.toContain('earlier (');
    expect(readStored(again).runs.map((r) => r.at)).toEqual(['2026-11-28T09:00:00.000Z']);
  });
});
