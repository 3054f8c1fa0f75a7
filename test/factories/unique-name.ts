import { randomBytes } from 'node:crypto';
import { relative } from 'node:path';

// test/setup/global-setup.mjs picks and prints the run's seed; a file run without it picks its own.
const seed = process.env.TEST_SEED || randomBytes(4).toString('hex');
if (!process.env.TEST_SEED) {
  process.env.TEST_SEED = seed;
  process.stderr.write(`unique names: TEST_SEED=${seed} repeats them\n`);
}

/** The seed of the run's names: `TEST_SEED=<seed>` makes a failing run's names again. */
export const testSeed = (): string => seed;

/** FNV-1a: a 32-bit number of a string, to start each file's stream from the seed and its path. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** mulberry32: a small seeded generator (the names only need to differ, not to be secret). */
function generator(start: number): () => number {
  let a = start;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// One stream per test file (jest gives each file its own module registry), so a file's names do not
// depend on which other files ran before it in the same worker.
const testPath = (globalThis as { expect?: { getState?: () => { testPath?: string } } }).expect?.getState?.().testPath;
const next = generator(hash(`${seed}:${testPath ? relative(process.cwd(), testPath) : ''}`));
let count = 0;

/**
 * A name no other call of the file returns: `prefix-` then letters and digits (lower case, no
 * other dash, so a `-` → `_` swap makes a handle). The same seed gives the same names.
 */
export function uniqueName(prefix: string): string {
  const random = Math.floor(next() * 36 ** 6)
    .toString(36)
    .padStart(6, '0');
  return `${prefix}-${random}${(++count).toString(36)}`;
}

/** `uniqueName` with `_` in place of `-`: a user handle or username. */
export const uniqueHandle = (prefix: string): string => uniqueName(prefix).replace('-', '_');
