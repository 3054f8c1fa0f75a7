// Builds dist/ when it is missing or older than the sources, so `npm start` always runs current code
// and stays fast when nothing changed. Runs on `npm install` (prepare) and before `npm start`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
if (!existsSync('node_modules/.bin/nest')) process.exit(0); // production install without dev tools: dist is shipped
if (existsSync(marker) && statSync(marker).mtimeMs >= sources) process.exit(0);
process.stdout.write('building (nest build)...\n');
execFileSync('node_modules/.bin/nest', ['build'], { stdio: 'inherit' });
writeFileSync(marker, new Date().toISOString());
