// Builds dist/ when it is missing or older than the sources, so `npm start` always runs current code
// and stays fast when nothing changed. Runs on `npm install` (prepare) and before `npm start`.
// Two parts with a stamp each: the service (nest build, which empties dist/ first) and the operator
// console (console/, built by Vite into dist/console), rebuilt when its sources or the typed client
// change, or after a service build.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unsupportedNodeLine } from './node-support.mjs';

const unsupported = unsupportedNodeLine(process.version, JSON.parse(readFileSync('package.json', 'utf8')).engines.node);
if (unsupported) process.stderr.write(`${unsupported}\n`);

const newest = (dir) => {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (p === join('bench', 'results')) continue; // the bench's own output, not a source
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};
const marker = 'dist/.build-stamp';
// bench/ is compiled too (npm run bench runs dist/bench), so a bench-only change rebuilds as well.
const sources = Math.max(
  newest('src'),
  newest('migrations'),
  newest('bench'),
  statSync('tsconfig.json').mtimeMs,
  statSync('package.json').mtimeMs,
);
const consoleMarker = 'dist/.console-build-stamp';
const consoleSources = Math.max(newest('console'), newest('clients'), statSync('package.json').mtimeMs);
const fresh = (stamp, since) => existsSync(stamp) && statSync(stamp).mtimeMs >= since;
if (!existsSync('node_modules/.bin/nest')) process.exit(0); // production install without dev tools: dist is shipped
let built = false;
if (!fresh(marker, sources)) {
  process.stdout.write('building (nest build)...\n');
  execFileSync('node_modules/.bin/nest', ['build'], { stdio: 'inherit' });
  writeFileSync(marker, new Date().toISOString());
  built = true;
}
if (built || !fresh(consoleMarker, consoleSources)) {
  process.stdout.write('building the console (vite build)...\n');
  execFileSync('node_modules/.bin/vite', ['build', '--config', 'console/vite.config.mjs'], { stdio: 'inherit' });
  writeFileSync(consoleMarker, new Date().toISOString());
}
