import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface ClosingLineOptions {
  /** The unit and integration run leaves its counts here for the end-to-end run that follows (npm test). */
  saveTo?: string;
  /** The end-to-end run adds these counts (and removes the file), so the last line is the whole of npm test. */
  addFrom?: string;
  /** Printed before this run's own counts when they are not the whole. */
  label?: string;
}

/**
 * Prints the plain closing line CI reads ("tests: N passed, N failed, N skipped"). `npm test` runs vitest
 * twice (unit and integration, then end-to-end): the second run's closing line counts both.
 */
export default class ClosingLineReporter implements Reporter {
  constructor(private readonly options: ClosingLineOptions = {}) {}

  /** Which Node runs the tests: the project's pinned one (node_modules/.bin/node), not the system's. */
  onInit(): void {
    process.stdout.write(`tests run on Node ${process.version} (${process.execPath})\n`);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts: Counts = { passed: 0, failed: 0, skipped: 0 };
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const line = (c: Counts) => `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`;
    const { saveTo, addFrom, label } = this.options;
    if (saveTo) {
      mkdirSync(dirname(saveTo), { recursive: true });
      writeFileSync(saveTo, JSON.stringify(counts));
    }
    let total = counts;
    if (addFrom) {
      try {
        const before = JSON.parse(readFileSync(addFrom, 'utf8')) as Counts;
        total = { passed: counts.passed + before.passed, failed: counts.failed + before.failed, skipped: counts.skipped + before.skipped };
        rmSync(addFrom, { force: true });
      } catch {
        // run alone: its own counts are the whole
      }
    }
    if (label && total !== counts) process.stdout.write(`\n${label}: ${line(counts)}`);
    process.stdout.write(`\ntests: ${line(total)}\n`);
  }
}
