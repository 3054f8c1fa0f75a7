import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The production image (docker/Dockerfile) copies what its build reads. No container engine runs
 * on these machines (docs/decisions.md, "The image"), so this holds the Dockerfile's COPY lines of
 * the build stage against the build's own inputs: the package files, the TypeScript build's
 * config and every root it includes, the console's Vite root and every file outside it that the
 * console imports. A root left out on purpose is named with the reason.
 */
const ROOT = resolve(process.cwd());
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
/** Roots the TypeScript build includes that the image does without, and why. */
const NOT_IN_IMAGE: Record<string, string> = { bench: 'the performance suite, run from a clone (npm run bench)' };

function copiedInBuildStage(): Set<string> {
  const dockerfile = read('docker/Dockerfile');
  const build = dockerfile.split(/^FROM /m)[1];
  const copied = new Set<string>();
  for (const line of build.split('\n')) {
    const m = /^COPY (?!--from)(.+)$/.exec(line.trim());
    if (!m) continue;
    const parts = m[1].split(/\s+/);
    for (const p of parts.slice(0, -1)) copied.add(p.replace(/\/$/, ''));
  }
  return copied;
}

/** The top-level path of each file the console's sources import from outside console/. */
function consoleImportsOutside(): Set<string> {
  const outside = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const p = join(dir, name);
      if (statSync(join(ROOT, p)).isDirectory()) walk(p);
      else if (/\.(ts|tsx|mjs|css)$/.test(name))
        for (const m of read(p).matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
          const target = relative(ROOT, resolve(ROOT, dirname(p), m[1]));
          if (!target.startsWith('console/')) outside.add(target.split('/')[0]);
        }
    }
  };
  walk('console');
  return outside;
}

describe('the production image', () => {
  const copied = copiedInBuildStage();

  it('copies the package files and the build configuration', () => {
    for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'])
      expect(copied).toContain(f);
    const nest = JSON.parse(read('nest-cli.json')) as { compilerOptions: { tsConfigPath: string } };
    expect(copied).toContain(nest.compilerOptions.tsConfigPath);
  });

  it('copies every root the TypeScript build includes, or says why not', () => {
    const build = JSON.parse(read('tsconfig.build.json')) as { include: string[] };
    const roots = [...new Set(build.include.map((g) => g.split('/')[0]))];
    expect(roots.length).toBeGreaterThan(2);
    expect(roots.filter((r) => !copied.has(r) && !NOT_IN_IMAGE[r])).toEqual([]);
  });

  it("copies the console's Vite root and what the console imports from outside it (the npm build script runs both builds)", () => {
    const script = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.build;
    const config = /vite build --config (\S+)/.exec(script)?.[1];
    expect(config).toBe('console/vite.config.mjs');
    expect(copied).toContain(config!.split('/')[0]);
    const outside = consoleImportsOutside();
    expect(outside).toContain('clients');
    expect([...outside].filter((p) => !copied.has(p))).toEqual([]);
  });

  it('sends the build what it copies: the build context ignores none of it', () => {
    const ignored = read('docker/Dockerfile.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect([...copied].filter((c) => ignored.some((i) => c === i || c.startsWith(`${i}/`)))).toEqual([]);
  });
});
