import express, { type Express, type Request, type Response } from 'express';
import request from 'supertest';
import { indexRoutes } from './route-index.js';

/** An app shaped like the service's: middleware, one run of routes from several modules interleaved, a catch-all, the rest. */
function app(): Express {
  const a = express();
  a.use((_req, res, next) => {
    res.setHeader('x-before', '1');
    next();
  });
  a.param('id', (req, res, next, id: string) => {
    res.setHeader('x-param', `id=${id}`);
    next();
  });
  const answer = (name: string) => (req: Request, res: Response) => {
    res.json({ name, params: req.params, route: (req.route as { path: string }).path });
  };
  a.get('/v1/community/:id', answer('community'));
  a.post('/v1/admin/grants', answer('grant'));
  a.get('/v1/community/:id/ranking/:slug', answer('ranking'));
  a.get('/v1/quest-event/:id', answer('event'));
  a.get('/v1/admin/quest-events/:id', answer('admin event'));
  a.get('/v1/user/me', answer('me'));
  a.get('/v1/user/:id', answer('user'));
  a.patch('/v1/community/:id', answer('community patch'));
  a.get('/health', answer('health'));
  // A second run, after a route of one segment.
  a.get('/v1/store/purchase', answer('purchases'));
  a.post('/v1/store/purchase/:listingId', answer('purchase'));
  a.get('/v1/user/:id/items', answer('items'));
  a.all('/v1{/*splat}', (req, res) => {
    res.status(404).json({ message: 'not found', path: req.path });
  });
  a.use((_req, res) => {
    res.status(404).json({ message: 'nowhere' });
  });
  return a;
}

const REQUESTS: [string, string][] = [
  ['get', '/v1/community/abc'],
  ['get', '/v1/community/abc/'],
  ['get', '/V1/Community/abc'],
  ['get', '/v1/community/a%20b?x=1'],
  ['get', '/v1/community/abc/ranking/xp'],
  ['get', '/v1/community'],
  ['get', '/v1/community/'],
  ['patch', '/v1/community/abc'],
  ['delete', '/v1/community/abc'],
  ['head', '/v1/community/abc'],
  ['options', '/v1/community/abc'],
  ['post', '/v1/admin/grants'],
  ['get', '/v1/admin/grants'],
  ['get', '/v1/admin/quest-events/e1'],
  ['get', '/v1/quest-event/e1'],
  ['get', '/v1/user/me'],
  ['get', '/v1/user/someone'],
  ['get', '/v1/nothing/here'],
  ['get', '//v1/community/abc'],
  ['get', '/health'],
  ['get', '/v1/store/purchase'],
  ['post', '/v1/store/purchase/l1'],
  ['get', '/v1/user/someone/items'],
  ['get', '/v1/user/me/items'],
  ['get', '/'],
];

describe('indexRoutes', () => {
  it('answers every request as the app without the index does', async () => {
    const plain = app();
    const indexed = app();
    expect(indexRoutes(indexed).sort()).toEqual(['/v1/admin', '/v1/community', '/v1/quest-event', '/v1/store', '/v1/user']);
    for (const [method, path] of REQUESTS) {
      const seen = await Promise.all(
        [plain, indexed].map(async (a) => {
          const res = await (request(a) as unknown as Record<string, (p: string) => request.Test>)[method](path);
          return {
            status: res.status,
            body: res.body as unknown,
            allow: res.headers.allow,
            before: res.headers['x-before'],
            param: res.headers['x-param'],
          };
        }),
      );
      expect({ method, path, answer: seen[1] }).toEqual({ method, path, answer: seen[0] });
    }
  });

  it("runs only the matchers of the request's prefix", async () => {
    const indexed = app();
    indexRoutes(indexed);
    const stack = (indexed as unknown as { router: { stack: { route?: { path: string }; match: (p: string) => unknown }[] } }).router.stack;
    const tried: string[] = [];
    for (const layer of stack.filter((l) => l.route)) {
      const match = layer.match.bind(layer);
      layer.match = (p) => {
        tried.push(layer.route!.path);
        return match(p);
      };
    }
    await request(indexed)
      .get('/v1/user/someone')
      .expect(200, { name: 'user', params: { id: 'someone' }, route: '/v1/user/:id' });
    expect(tried).toEqual(['/v1/user/me', '/v1/user/:id']);
  });

  it('leaves an app without such a run of routes as it was', () => {
    const a = express();
    a.get('/health', (_req, res) => {
      res.json({});
    });
    const before = [...(a as unknown as { router: { stack: unknown[] } }).router.stack];
    expect(indexRoutes(a)).toEqual([]);
    expect((a as unknown as { router: { stack: unknown[] } }).router.stack).toEqual(before);
  });
});
