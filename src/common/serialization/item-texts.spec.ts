import express from 'express';
import request from 'supertest';
import { toPage } from '../pagination/pagination.js';
import { keptItem, pageOfKeptItems, unkeptItem } from './item-texts.js';
import { jsonText, serveJsonAnswers, TextAnswer } from './shared-answer.js';

describe('keptItem', () => {
  it('builds and serializes an item once per row and variant: the same variant gives the kept item, another variant its own', () => {
    const row = { id: 'e1', name: 'Cup' };
    let builds = 0;
    const build = (item: object) => () => {
      builds++;
      return item;
    };
    const first = keptItem(row, 1, build({ ...row, status: 'active', mine: 1 }));
    expect(first.item).toEqual({ id: 'e1', name: 'Cup', status: 'active', mine: 1 });
    expect(first.text).toEqual({ text: '{"id":"e1","name":"Cup","status":"active","mine":1}', bytes: 51 });
    // Every caller of the variant gets the same item: it cannot be changed.
    expect(Object.isFrozen(first.item)).toBe(true);
    // Kept: the same variant is not built again.
    expect(keptItem(row, 1, build({ changed: true }))).toBe(first);
    expect(builds).toBe(1);
    expect(keptItem(row, 2, build({ ...row, status: 'active', mine: null })).text.text).toBe(
      '{"id":"e1","name":"Cup","status":"active","mine":null}',
    );
    expect(builds).toBe(2);
    // Another row with equal contents has items of its own.
    expect(keptItem({ ...row }, 1, build({ other: 1 })).text.text).toBe('{"other":1}');
    // The length in UTF-8 bytes, not in characters.
    expect(keptItem({}, 0, () => ({ name: 'Ünï🎮' })).text).toEqual({ text: '{"name":"Ünï🎮"}', bytes: 20 });
  });

  it('keeps at most 16 variants of a row, then starts over', () => {
    const row = {};
    for (let v = 0; v < 16; v++) keptItem(row, v, () => ({ v }));
    expect(keptItem(row, 0, () => ({ again: true })).text.text).toBe('{"v":0}');
    keptItem(row, 16, () => ({ v: 16 })); // the 17th: the row's items start over
    expect(keptItem(row, 0, () => ({ again: true })).text.text).toBe('{"again":true}');
  });

  it('unkeptItem serializes an item in the same form without keeping it', () => {
    const item = { name: 'Ünï' };
    const made = unkeptItem(item);
    expect(made).toEqual({ item, text: { text: '{"name":"Ünï"}', bytes: 16 } });
    expect(unkeptItem(item)).not.toBe(made);
  });
});

describe('pageOfKeptItems', () => {
  const items = [
    { id: 'a', name: 'Ünïcode \u2028 "quoted" 🎮', tags: ['x'], n: 1.5, none: null },
    { id: 'b', name: 'B', tags: [], n: -2, none: null },
  ];
  const request2 = { page: 2, limit: 2, offset: 2 };
  const page = (of: object[] = items) => toPage(of, 41, request2);
  const pageOf = (of: object[] = items) => pageOfKeptItems(of.map(unkeptItem), 41, request2);

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
      app.get(path, (_req, res) => void res.json(pageOf(of)));
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
    app.get('/ascii', (_req, res) => void res.json(pageOf(ascii)));
    app.get('/mixed', (_req, res) => void res.json(pageOf()));
    const text = (await request(app).get('/ascii').expect(200)).text;
    expect(JSON.parse(text)).toEqual({ items: ascii, page: 2, limit: 2, total: 41, hasNextPage: true });
    await request(app).get('/mixed').expect(200);
    expect(written).toEqual(['latin1', 'buffer']);
  });

  it('sends the kept texts as they are, and the page object holds the kept items', async () => {
    const app = express();
    serveJsonAnswers(app);
    const kept = [
      { item: { id: 'a' }, text: jsonText('{"kept":1}') },
      { item: { id: 'b' }, text: jsonText('{"kept":2}') },
    ];
    const answer = pageOfKeptItems(kept, 41, request2);
    expect(answer).toEqual({ items: [{ id: 'a' }, { id: 'b' }], page: 2, limit: 2, total: 41, hasNextPage: true });
    // The text rides on the answer unseen: serialized on its own, the answer is its fields alone.
    expect(JSON.stringify(answer)).toBe('{"items":[{"id":"a"},{"id":"b"}],"page":2,"limit":2,"total":41,"hasNextPage":true}');
    const carried = TextAnswer.textOf(answer);
    expect(carried?.text).toBe('{"items":[{"kept":1},{"kept":2}],"page":2,"limit":2,"total":41,"hasNextPage":true}');
    // Its byte count, summed from the parts, is the text's UTF-8 length.
    expect(carried?.bytes).toBe(Buffer.byteLength(carried!.text));
    expect(TextAnswer.textOf({ ...answer })).toBeUndefined();
    app.get('/', (_req, res) => void res.json(answer));
    expect((await request(app).get('/')).body.items).toEqual([{ kept: 1 }, { kept: 2 }]);
  });
});
