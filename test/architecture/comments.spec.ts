import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const root = join(import.meta.dirname, '..', '..');

/**
 * What a comment in src/ may not carry: it says why in a line, and figures and history live in
 * docs/performance.md and git. A date written as an example inside a code span (`2026-W49`) is
 * not history, so code spans are left out; so are specs, whose comments explain their test data
 * (an instant of a daylight-saving change is a date).
 */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['a date', /\b20\d\d-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b/],
  ['a CPU share', /\d+(?:[.,–-]\d+)? ?% of [^.]*\b(?:CPU|profile|time)\b/i],
  [
    'a journal entry',
    /\b(?:night|morning|evening) of\b|\bthe day's\b|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth) machine\b/i,
  ],
  ['a machine', /\b\d+-core\b|\bon (?:this|that|these|one|the [a-z]+) machines?\b/i],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [p] : [];
  });
}

/** Every comment of `text` (each once), without its code spans, with the line it starts on. */
function comments(file: string, text: string): Array<{ line: number; text: string }> {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Map<number, { line: number; text: string }>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? [])
      if (!seen.has(r.pos))
        seen.set(r.pos, {
          line: sf.getLineAndCharacterOfPosition(r.pos).line + 1,
          text: text.slice(r.pos, r.end).replace(/`[^`]*`/g, '``'),
        });
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...seen.values()];
}

/** `file:line: what` for each comment of the files that carries something FORBIDDEN. */
function findings(files: string[], read: (f: string) => string = (f) => readFileSync(f, 'utf8')): string[] {
  return files.flatMap((f) =>
    comments(f, read(f)).flatMap((c) =>
      FORBIDDEN.filter(([, re]) => re.test(c.text)).map(([what]) => `${relative(root, f)}:${c.line}: ${what}`),
    ),
  );
}

describe('comments in src/ give reasons, not dates, figures or machines', () => {
  it('finds each kind in a planted file, and leaves code spans and code alone', () => {
    const planted = [
      '// Measured on 2026-11-27: faster.',
      "/** Decoding cost 3 % of a public read's CPU. */",
      '// See the night of the release.',
      '// Twice as fast on this machine.',
      '/** A period such as `2026-12-02` (daily). */',
      "const d = '2026-12-02'; // a literal, not a comment",
    ].join('\n');
    const file = join(root, 'src', 'planted.ts');
    expect(findings([file], () => planted)).toEqual([
      'src/planted.ts:1: a date',
      'src/planted.ts:2: a CPU share',
      'src/planted.ts:3: a journal entry',
      'src/planted.ts:4: a machine',
    ]);
  });

  it('no comment in src/ names a date, a CPU share, a journal entry or a machine', () => {
    const files = sourceFiles(join(root, 'src'));
    expect(files.length).toBeGreaterThan(100);
    expect(findings(files)).toEqual([]);
  });
});
