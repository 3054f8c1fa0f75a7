import express from 'express';
import request from 'supertest';
import { toPage } from '../pagination/pagination.js';
import { itemText, pageOfItemTexts } from './item-texts.js';
import { jsonText, serveJsonAnswers } from './shared-answer.js';

describe('itemText', () => {
  it('serializes an item once per row and variant: the same variant gives the kept text, another variant its own', () => {
    const row = { id: 'e1', name: 'Cup' };
    const first = itemText(row, 1, { ...row, status: 'active', mine: 1 });
    expect(first).toEqual({ text: '{"id":"e1","name":"Cup","status":"active","mine":1}', bytes: 51 });
    // Kept: the item is not serialized again (a different object with the same variant gives the kept text).
    expect(itemText(row, 1, { changed: true })).toBe(first);
    expect(itemText(row, 2, { ...row, status: 'active', mine: null }).text).toBe('{"id":"e1","name":"Cup","status":"active","mine":null}');
    // Another row with equal contents has texts of its own.
    expect(itemText({ ...row }, 1, { other: 1 }).text).toBe('{"other":1}');
    // The length in UTF-8 bytes, not in characters.
    expect(itemText({}, 0, { name: 'Ünï🎮' })).toEqual({ text: '{"name":"Ünï🎮"}', bytes: 20 });
  });

  it('keeps at most 16 variants of a row, then starts over', () => {
    const row = {};
    for (let v = 0; v < 16; v++) itemText(row, v, { v });
    expect(itemText(row, 0, { again: true }).text).toBe('{"v":0}');
    itemText(row, 16, { v: 16 }); // the 17th: the row's texts start over
    expect(itemText(row, 0, { again: true }).text).toBe('{"again":true}');
  });
});

describe('pageOfItemTexts', () => {
  const items = [
    { id: 'a', name: 'Ünïcode \u2028 "quoted" 🎮', tags: ['x'], n: 1.5, none: null },
    { id: 'b', name: 'B', tags: [], n: -2, none: null },
  ];
  const page = (of: object[] = items) => toPage(of, 41, { page: 2, limit: 2, offset: 2 });

  it('sends, through res.json, exactly what Express sends for the page itself: ASCII, not ASCII, empty', async () => {
    const app = express();
    serveJsonAnswers(app);
    const reference = express();
    const ascii = [items[1], { id: 'c', name: 'C', tags: ['y', 'z'], n: 3, none: null }];
    const cases: [string, object[]][] = [
      ['/mixed', items],
      ['/ascii', ascii],
      ['/empty', []],
    ];
    for (const [path, of] of cases) {
      app.get(
        path,
        (_req, res) =>
          void res.json(
            pageOfItemTexts(
              page(of),
              of.map((item) => jsonText(JSON.stringify(item))),
            ),
          ),
      );
      reference.get(path, (_req, res) => void res.json(page(of)));
      const [joined, plain] = await Promise.all([request(app).get(path), request(reference).get(path)]);
      expect(joined.text).toBe(plain.text);
      expect(joined.headers['content-type']).toBe(plain.headers['content-type']);
      expect(joined.headers['content-length']).toBe(plain.headers['content-length']);
      expect(joined.body).toEqual({ items: of, page: 2, limit: 2, total: 41, hasNextPage: true });
    }
  });

  it('writes a page of ASCII texts as Latin-1, counted from its texts; any other as UTF-8 bytes', async () => {
    const app = express();
    serveJsonAnswers(app);
    const written: unknown[] = [];
    const end = Reflect.get(app.response, 'end') as (...a: unknown[]) => express.Response;
    Reflect.set(app.response, 'end', function (this: express.Response, ...args: unknown[]) {
      written.push(typeof args[0] === 'string' ? args[1] : Buffer.isBuffer(args[0]) ? 'buffer' : args[0]);
      return end.apply(this, args);
    });
    const ascii = [items[1], { id: 'c', name: 'C', tags: [], n: 3, none: null }];
    app.get(
      '/ascii',
      (_req, res) =>
        void res.json(
          pageOfItemTexts(
            page(ascii),
            ascii.map((item) => jsonText(JSON.stringify(item))),
          ),
        ),
    );
    app.get(
      '/mixed',
      (_req, res) =>
        void res.json(
          pageOfItemTexts(
            page(),
            items.map((item) => jsonText(JSON.stringify(item))),
          ),
        ),
    );
    const text = (await request(app).get('/ascii').expect(200)).text;
    expect(JSON.parse(text)).toEqual({ items: ascii, page: 2, limit: 2, total: 41, hasNextPage: true });
    await request(app).get('/mixed').expect(200);
    expect(written).toEqual(['latin1', 'buffer']);
  });

  it('sends the texts it is given (the kept ones), and refuses a text count that is not the item count', async () => {
    const app = express();
    serveJsonAnswers(app);
    app.get('/', (_req, res) => void res.json(pageOfItemTexts(page(), [jsonText('{"kept":1}'), jsonText('{"kept":2}')])));
    expect((await request(app).get('/')).body.items).toEqual([{ kept: 1 }, { kept: 2 }]);
    expect(() => pageOfItemTexts(page(), [jsonText('{}')])).toThrow(/one text per item/);
  });
});
