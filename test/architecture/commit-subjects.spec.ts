import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

interface CommitSubjects {
  subjectProblems: (subject: string) => string[];
  commitsToCheck: (cwd: string, since?: string) => { sha: string; subject: string }[];
}

const load = async () => (await import(pathToFileURL(resolve('scripts/commit-subjects.mjs')).href)) as CommitSubjects;

/** The commit-subject rule of .ci/run (`npm run commits:check`). */
describe('commit subjects', () => {
  it('takes a module prefix and at most 72 characters, and refuses the rest', async () => {
    const { subjectProblems } = await load();
    expect(subjectProblems('store: purchases name the buyer')).toEqual([]);
    expect(subjectProblems('database, docs: read replicas')).toEqual([]);
    expect(subjectProblems(`store: ${'x'.repeat(66)}`)).toEqual([expect.stringMatching(/^73 characters/)]);
    expect(subjectProblems('Fix the store')).toEqual(['no module prefix (`store: ...`)']);
    expect(subjectProblems('store: fix the listing.')).toEqual(['ends with a period']);
  });

  it('checks the commits authored after the base date', async () => {
    const { commitsToCheck } = await load();
    const dir = mkdtempSync(join(tmpdir(), 'cgs-commits-'));
    try {
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' }).trim();
      git('init', '-q');
      const commit = (subject: string, date: string) => {
        writeFileSync(join(dir, 'f'), subject);
        git('add', 'f');
        git('commit', '-q', '-m', subject, `--date=${date}`);
      };
      commit('an old subject that was written before the rule and runs far past the limit', '2026-12-01T10:00:00Z');
      commit('store: after the base', '2026-12-02T10:00:00Z');
      expect(commitsToCheck(dir, '2026-12-02T09:05:55Z').map((c) => c.subject)).toEqual(['store: after the base']);
      expect(commitsToCheck(dir, '2026-11-30T00:00:00Z').map((c) => c.subject)).toHaveLength(2);
      expect(() => commitsToCheck(dir, 'not a date')).toThrow('not a date');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
