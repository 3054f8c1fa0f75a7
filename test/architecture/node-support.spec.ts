import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');
const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

describe('npm start on an unsupported Node.js', () => {
  it('prints one line naming the supported versions and the way to get one, and nothing on a supported one', async () => {
    const { unsupportedNodeLine } = (await import(join(ROOT, 'scripts/node-support.mjs'))) as {
      unsupportedNodeLine: (version: string, range: string) => string | null;
    };
    const line = unsupportedNodeLine('v20.20.2', engines.node);
    expect(line).toBe(
      'This is Node.js v20.20.2; the service supports ^22.22.3 or >=24.15.0. Get one with `eval "$(scripts/node-toolchain.sh env 24)"` (README, "Node.js versions").',
    );
    expect(unsupportedNodeLine('v22.22.2', engines.node)).toMatch(/^This is Node\.js v22\.22\.2;/);
    expect(unsupportedNodeLine('v22.22.3', engines.node)).toBeNull();
    expect(unsupportedNodeLine('v24.21.0', engines.node)).toBeNull();
    expect(unsupportedNodeLine(process.version, engines.node)).toBeNull(); // the Node running the tests is a supported one
  });
});
