import express from 'express';
import request from 'supertest';
import { toPage } from '../pagination/pagination.js';
import { keptItem, pageOfItemTexts } from './item-texts.js';
import { serveSharedAnswers } from './shared-answer.js';

describe('keptItem', () => {
  it('builds and serializes an item once per row and variant: the same variant gives the kept one, another variant its own', () => {
    const row = { id: 'e1', name: 'Cup' };
    let builds = 0;
    const build = (item: object) => () => (builds++, item);
    const first = keptItem(row, 1, build({ ...row, status: 'active', mine: 1 }));
    expect(first.text).toBe('{"id":"e1","name":"Cup","status":"active","mine":1}');
    expect(first.item).toEqual({ ...row, status: 'active', mine: 1 });
    expect(Object.isFrozen(first.item)).toBe(true);
    // Kept: not built again.
    expect(keptItem(row, 1, build({ changed: true }))).toBe(first);
    expect(builds).toBe(1);
    expect(keptItem(row, 2, build({ ...row, status: 'active', mine: null })).text).toBe(
      '{"id":"e1","name":"Cup","status":"active","mine":null}',
    );
    // Another row with equal contents has items of its own.
    expect(keptItem({ ...row }, 1, build({ other: 1 })).text).toBe('{"other":1}');
    expect(builds).toBe(3);
  });

  it('keeps at most 16 variants of a row, then starts over', () => {
    const row = {};
    for (let v = 0; v < 16; v++) keptItem(row, v, () => ({ v }));
    expect(keptItem(row, 0, () => ({ again: true })).text).toBe('{"v":0}');
    keptItem(row, 16, () => ({ v: 16 })); // the 17th: the row's items start over
    expect(keptItem(row, 0, () => ({ again: true })).text).toBe('{"again":true}');
  });
});

describe('pageOfItemTexts', () => {
  const items = [
    { id: 'a', name: 'Ünïcode \u2028 "quoted"', tags: ['x'], n: 1.5, none: null },
    { id: 'b', name: 'B', tags: [], n: -2, none: null },
  ];
  const page = () => toPage(items, 41, { page: 2, limit: 2, offset: 2 });

  it('sends, through res.json, exactly what Express sends for the page itself', async () => {
    const app = express();
    serveSharedAnswers(app);
    app.get(
      '/joined',
      (_req, res) =>
        void res.json(
          pageOfItemTexts(
            page(),
            items.map((item) => JSON.stringify(item)),
          ),
        ),
    );
    app.get('/plain', (_req, res) => void res.json(page()));
    const [joined, plain] = await Promise.all([request(app).get('/joined'), request(app).get('/plain')]);
    expect(joined.text).toBe(plain.text);
    expect(joined.headers['content-type']).toBe(plain.headers['content-type']);
    expect(joined.body).toEqual({ items, page: 2, limit: 2, total: 41, hasNextPage: true });
  });

  it('sends the texts it is given (the kept ones), and refuses a text count that is not the item count', async () => {
    const app = express();
    serveSharedAnswers(app);
    app.get('/', (_req, res) => void res.json(pageOfItemTexts(page(), ['{"kept":1}', '{"kept":2}'])));
    expect((await request(app).get('/')).body.items).toEqual([{ kept: 1 }, { kept: 2 }]);
    expect(() => pageOfItemTexts(page(), ['{}'])).toThrow(/one text per item/);
  });
});
