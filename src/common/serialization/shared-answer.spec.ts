import express from 'express';
import request from 'supertest';
import { serveJsonAnswers, sharedAnswer } from './shared-answer.js';

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

describe('serveJsonAnswers', () => {
  /** Over Express's 1,000 characters (it counts a longer body by copying it into a Buffer), with multi-byte text. */
  const long = { items: Array.from({ length: 60 }, (_, i) => ({ i, name: `quête ${i} 🎮`, sep: '\u2028' })) };

  const longShared = sharedAnswer(
    long,
    'long',
    (s) => ({ ...s }),
    () => true,
  );
  const ascii = { items: Array.from({ length: 60 }, (_, i) => ({ i, name: `quest ${i}` })) };
  const asciiShared = sharedAnswer(
    ascii,
    'ascii',
    (s) => ({ ...s }),
    () => true,
  );

  function app(withShared: boolean) {
    const a = express();
    a.set('etag', false);
    if (withShared) serveJsonAnswers(a);
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
    a.get('/long', (_req, res) => void res.json(long));
    a.get('/long-shared', (_req, res) => void res.json(longShared));
    a.get('/ascii-shared', (_req, res) => void res.json(asciiShared));
    a.get('/typed', (_req, res) => void res.type('application/vnd.custom+json').json(answer));
    a.get('/scalars', (_req, res) => void res.json(null));
    a.get('/nothing', (_req, res) => void res.json({ toJSON: () => undefined }));
    a.get('/created', (_req, res) => void res.status(201).json(long));
    a.get('/empty', (_req, res) => void res.status(204).json(long));
    a.get('/reset', (_req, res) => void res.status(205).json(long));
    a.get('/chunked', (_req, res) => void res.set('Transfer-Encoding', 'chunked').json(long));
    a.get('/tagged', (_req, res) => void res.set('ETag', '"v1"').json(long));
    return { a, shared, plain };
  }

  /** What a client sees of an answer: status, every header but the date, and the body's bytes. */
  async function seen(a: express.Express, method: 'get' | 'head', path: string, headers: Record<string, string>) {
    let req = request(a)
      [method](path)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
    const res = await req;
    const { date: _date, ...rest } = res.headers as Record<string, string>;
    return { status: res.status, headers: rest, body: (res.body as Buffer).toString('hex') };
  }

  it('sends every answer byte for byte and header for header as Express would, a shared one serialized once', async () => {
    const { a, shared, plain } = app(true);
    const { a: reference } = app(false);
    const paths = [
      '/shared',
      '/shared',
      '/plain',
      '/plain',
      '/long',
      '/long-shared',
      '/ascii-shared',
      '/typed',
      '/scalars',
      '/nothing',
      '/created',
      '/empty',
      '/reset',
      '/chunked',
      '/tagged',
    ];
    const requests: ['get' | 'head', Record<string, string>][] = [
      ['get', {}],
      ['head', {}],
      // Conditional requests go through Express's freshness check (`*` matches any answer).
      ['get', { 'If-None-Match': '*' }],
      ['get', { 'If-None-Match': '"v1"' }],
      ['get', { 'If-Modified-Since': new Date().toUTCString() }],
    ];
    for (const [method, headers] of requests) {
      for (const path of paths) {
        const [ours, theirs] = await Promise.all([seen(a, method, path, headers), seen(reference, method, path, headers)]);
        expect({ method, path, sent: headers, ...ours }).toEqual({ method, path, sent: headers, ...theirs });
      }
    }
    expect(shared.serializations()).toBe(1);
    // What is not a shared answer is serialized at every send.
    expect(plain.serializations()).toBe(2 * requests.length);
  });

  it('writes a plain answer with res.end, not through res.send', async () => {
    const { a } = app(true);
    let sends = 0;
    const send = a.response.send;
    a.response.send = function (this: express.Response, body: unknown) {
      sends++;
      return send.call(this, body);
    };
    await request(a).get('/long').expect(200);
    await request(a).head('/long').expect(200);
    expect(sends).toBe(0);
    await request(a).get('/long').set('If-None-Match', '*').expect(304);
    await request(a).get('/typed').expect(200);
    expect(sends).toBe(2);
  });
});
