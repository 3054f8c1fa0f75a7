// A jest runner (every project of jest.config.mjs uses it) that runs the test files in two lanes
// at once: a "heavy" lane of one worker that runs one heavy file at a time (the reliability
// suite: each file starts several app processes and loads them), and a lane with the other
// workers for everything else. Plain jest with 2 workers would sometimes run two heavy files
// together and starve both (lock timeouts under load); running them one after the other after
// everything else wastes the second core. Files other than heavy ones fill the heavy lane too
// when, by the durations of the previous run, it would otherwise finish first.
//
// With --runInBand (or one worker), or when there is nothing to split, it is jest's own runner.
import { readFileSync } from 'node:fs';
import TestRunner, { EmittingTestRunner } from 'jest-runner';

/** Projects whose every file is heavy. A file elsewhere is heavy with a `@lane heavy` docblock tag. */
const HEAVY_PROJECTS = new Set(['reliability', 'reliability-long']);
const EVENTS = ['test-file-start', 'test-file-success', 'test-file-failure', 'test-case-start', 'test-case-result'];

function isHeavy(test) {
  const name = test.context.config.displayName?.name;
  if (HEAVY_PROJECTS.has(name)) return true;
  try {
    return /^\s*\*\s*@lane\s+heavy\b/m.test(readFileSync(test.path, 'utf8').slice(0, 4000));
  } catch {
    return false;
  }
}

export default class LaneRunner extends EmittingTestRunner {
  constructor(globalConfig, context, options) {
    super(globalConfig, context, options);
    const workers = Math.max(1, globalConfig.maxWorkers);
    this.single = new TestRunner(globalConfig, context);
    this.heavyLane = new TestRunner({ ...globalConfig, maxWorkers: 1 }, context);
    this.lightLane = new TestRunner({ ...globalConfig, maxWorkers: Math.max(1, workers - 1) }, context);
    this.lightWorkers = Math.max(1, workers - 1);
  }

  async runTests(tests, watcher, options) {
    const heavy = tests.filter(isHeavy);
    const light = tests.filter((t) => !heavy.includes(t));
    if (options.serial || this._globalConfig.maxWorkers < 2 || heavy.length === 0 || light.length === 0)
      return this.single.runTests(tests, watcher, options);

    // Balance by last run's durations (jest's sequencer set `duration`; tests arrive longest first).
    const known = (t) => (typeof t.duration === 'number' ? t.duration : undefined);
    let heavyLoad = heavy.reduce((s, t) => s + (known(t) ?? 0), 0);
    let lightLoad = 0;
    const heavyQueue = [...heavy];
    const lightQueue = [];
    for (const t of light) {
      const d = known(t);
      if (d !== undefined && heavyLoad + d < (lightLoad + d) / this.lightWorkers) {
        heavyQueue.push(t);
        heavyLoad += d;
      } else {
        lightQueue.push(t);
        lightLoad += d ?? 0;
      }
    }
    await Promise.all([
      this.heavyLane.runTests(heavyQueue, watcher, { ...options, serial: false }),
      this.lightLane.runTests(lightQueue, watcher, { ...options, serial: false }),
    ]);
  }

  on(eventName, listener) {
    if (!EVENTS.includes(eventName)) return this.single.on(eventName, listener);
    const offs = [this.single, this.heavyLane, this.lightLane].map((r) => r.on(eventName, listener));
    return () => offs.forEach((off) => off());
  }
}
