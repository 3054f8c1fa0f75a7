import express from 'express';
import request from 'supertest';
import { toPage } from '../pagination/pagination.js';
import { itemText, pageOfItemTexts } from './item-texts.js';
import { serveSharedAnswers } from './shared-answer.js';

describe('itemText', () => {
  it('serializes an item once per row and variant: the same variant gives the kept text, another variant its own', () => {
    const row = { id: 'e1', name: 'Cup' };
    const first = itemText(row, 1, { ...row, status: 'active', mine: 1 });
    expect(first).toBe('{"id":"e1","name":"Cup","status":"active","mine":1}');
    // Kept: the item is not serialized again (a different object with the same variant gives the kept text).
    expect(itemText(row, 1, { changed: true })).toBe(first);
    expect(itemText(row, 2, { ...row, status: 'active', mine: null })).toBe('{"id":"e1","name":"Cup","status":"active","mine":null}');
    // Another row with equal contents has texts of its own.
    expect(itemText({ ...row }, 1, { other: 1 })).toBe('{"other":1}');
  });

  it('keeps at most 16 variants of a row, then starts over', () => {
    const row = {};
    for (let v = 0; v < 16; v++) itemText(row, v, { v });
    expect(itemText(row, 0, { again: true })).toBe('{"v":0}');
    itemText(row, 16, { v: 16 }); // the 17th: the row's texts start over
    expect(itemText(row, 0, { again: true })).toBe('{"again":true}');
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
