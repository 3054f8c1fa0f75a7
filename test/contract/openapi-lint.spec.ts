import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

describe('openapi.json passes the Redocly linter (redocly.yaml)', () => {
  it('has no lint errors', async () => {
    const res = await run(process.execPath, ['node_modules/@redocly/cli/bin/cli.js', 'lint', 'openapi.json', '--format=json'], {
      maxBuffer: 64 * 1024 * 1024,
    })
      .then((r) => ({ code: 0, stdout: r.stdout }))
      .catch((e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }));
    const report = JSON.parse(res.stdout.slice(res.stdout.indexOf('{'))) as {
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const errors = report.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
    expect(res.code).toBe(0);
  }, 60_000);
});
