import express from 'express';
import request from 'supertest';
import { serveSharedAnswers, sharedAnswer } from './shared-answer.js';

/** A value whose serializations are counted: JSON.stringify calls `toJSON` once per serialization. */
function counted(name: string): { value: { name: string; toJSON(): unknown }; serializations: () => number } {
  let n = 0;
  const value = {
    name,
    toJSON() {
      n++;
      return { name, items: [{ rank: 1, amount: '12' }], unicode: 'é\u2028' };
    },
  };
  return { value, serializations: () => n };
}

describe('sharedAnswer', () => {
  it('keeps one frozen answer per source while it fits, and builds anew when it does not', () => {
    const source = { items: [1, 2], total: 2 };
    let builds = 0;
    const build = (page: number) => (s: typeof source) => ({ ...s, page, n: ++builds });
    const first = sharedAnswer(source, 'page', build(1), (a) => a.page === 1);
    expect(sharedAnswer(source, 'page', build(1), (a) => a.page === 1)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(builds).toBe(1);
    const other = sharedAnswer(source, 'page', build(2), (a) => a.page === 2);
    expect(other).not.toBe(first);
    expect(other).toMatchObject({ page: 2, n: 2 });
    // Another source with equal contents is another answer.
    expect(sharedAnswer({ ...source }, 'page', build(2), () => true)).not.toBe(other);
    // Another kind of answer from the same source is its own answer, and leaves the first kept.
    const summary = sharedAnswer(
      source,
      'summary',
      (x) => ({ count: x.items.length }),
      () => true,
    );
    expect(summary).toEqual({ count: 2 });
    expect(sharedAnswer(source, 'page', build(3), (a) => a.page === 2)).toBe(other);
  });
});

describe('serveSharedAnswers', () => {
  function app(withShared: boolean) {
    const a = express();
    if (withShared) serveSharedAnswers(a);
    const shared = counted('shared');
    const plain = counted('plain');
    const answer = sharedAnswer(
      shared,
      'board',
      (s) => ({ board: s.value }),
      () => true,
    );
    a.get('/shared', (_req, res) => void res.json(answer));
    a.get('/plain', (_req, res) => void res.json({ board: plain.value }));
    a.get('/typed', (_req, res) => void res.type('application/vnd.custom+json').json(answer));
    a.get('/scalars', (_req, res) => void res.json(null));
    return { a, shared, plain };
  }

  it('sends a shared answer serialized once, byte for byte as Express would', async () => {
    const { a, shared, plain } = app(true);
    const { a: reference } = app(false);
    for (const path of ['/shared', '/shared', '/plain', '/plain', '/typed', '/scalars']) {
      const [ours, theirs] = await Promise.all([request(a).get(path), request(reference).get(path)]);
      expect({ path, status: ours.status, type: ours.headers['content-type'], text: ours.text }).toEqual({
        path,
        status: theirs.status,
        type: theirs.headers['content-type'],
        text: theirs.text,
      });
    }
    expect(shared.serializations()).toBe(1);
    // What is not a shared answer is serialized at every send.
    expect(plain.serializations()).toBe(2);
  });
});
