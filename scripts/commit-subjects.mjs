// `npm run commits:check`: the subjects of the commits from issue 50 on (authored after SINCE)
// are one line of at most 72 characters with a module prefix (`store: ...`); the detail goes in
// the body. Run by .ci/run over the commits it builds. The base is an author date, not a hash:
// a rebase or a cherry-pick keeps the date and a shallow clone needs no old commit.
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The author date of the last commit before the rule (f1e2d65, `database: follow a failover ...`). */
export const SINCE = '2026-12-02T09:05:55Z';
export const MAX_SUBJECT = 72;
/** A module or area in lower case, then ": " and the change. */
const PREFIX = /^[a-z0-9][a-z0-9./-]*(, ?[a-z0-9][a-z0-9./-]*)*: \S/;

/** What is wrong with a commit subject (none: []). */
export function subjectProblems(subject) {
  const problems = [];
  if (subject.length > MAX_SUBJECT) problems.push(`${subject.length} characters (at most ${MAX_SUBJECT})`);
  if (!PREFIX.test(subject)) problems.push('no module prefix (`store: ...`)');
  if (/\.$/.test(subject)) problems.push('ends with a period');
  return problems;
}

const git = (args, cwd) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

/** The commits to check in the repository at `cwd`: those authored after `since`. */
export function commitsToCheck(cwd, since = SINCE) {
  const after = Date.parse(since);
  if (Number.isNaN(after)) throw new Error(`not a date: ${since}`);
  const out = git(['log', '--no-merges', '--format=%H%x09%aI%x09%s', 'HEAD'], cwd);
  if (out === '') return [];
  return out
    .split('\n')
    .map((line) => {
      const [sha, date, ...subject] = line.split('\t');
      return { sha, date: Date.parse(date), subject: subject.join('\t') };
    })
    .filter((c) => c.date > after)
    .map(({ sha, subject }) => ({ sha, subject }));
}

function main() {
  const cwd = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const bad = commitsToCheck(cwd).flatMap((c) => {
    const problems = subjectProblems(c.subject);
    return problems.length ? [`${c.sha.slice(0, 10)} ${c.subject}\n    ${problems.join('; ')}`] : [];
  });
  if (bad.length) {
    process.stderr.write(
      `commit subjects that break the rule (one line of at most ${MAX_SUBJECT} characters with a module prefix; the detail in the body):\n${bad.join('\n')}\n`,
    );
    process.exit(1);
  }
  process.stdout.write('commit subjects: ok\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
