import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local servers that implement the documented endpoints the social quest tasks call, in the
 * platforms' shapes, so the checks run against real HTTP on this machine:
 * - Discord REST API v10: `GET /api/v10/guilds/{guild.id}/members/{user.id}` with `Authorization: Bot <token>`:
 *   200 a guild member object, 404 `{"message": "Unknown Member", "code": 10007}`, 401 `{"message": "401: Unauthorized", "code": 0}`;
 * - X API v2: `GET /2/users/{id}/following?max_results=&pagination_token=` with `Authorization: Bearer <token>`:
 *   200 `{data: [{id, name, username}], meta: {result_count, next_token?}}`, 401 `{title, type, status, detail}`.
 */
export interface PlatformStandIn {
  /** DISCORD_API_BASE_URL. */
  discordUrl: string;
  /** X_API_BASE_URL. */
  xUrl: string;
  discordToken: string;
  xToken: string;
  /** guild id -> user id -> the member's role ids. */
  members: Map<string, Map<string, string[]>>;
  /** user id -> the ids of the accounts they follow, in order. */
  follows: Map<string, string[]>;
  /** Answer nothing for this long (a platform that hangs). */
  delayMs: number;
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  close: () => Promise<void>;
}

export async function startPlatformStandIn(): Promise<PlatformStandIn> {
  const state: PlatformStandIn = {
    discordUrl: '',
    xUrl: '',
    discordToken: 'discord-bot-token-of-the-tests',
    xToken: 'x-bearer-token-of-the-tests',
    members: new Map(),
    follows: new Map(),
    delayMs: 0,
    requests: [],
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    state.requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers });
    const answer = () => {
      const member = /^\/api\/v10\/guilds\/(\d+)\/members\/(\d+)$/.exec(url.pathname);
      if (member) {
        if (req.headers.authorization !== `Bot ${state.discordToken}`) return json(res, 401, { message: '401: Unauthorized', code: 0 });
        const roles = state.members.get(member[1])?.get(member[2]);
        if (!roles) return json(res, 404, { message: 'Unknown Member', code: 10007 });
        return json(res, 200, {
          user: { id: member[2], username: `user${member[2]}`, discriminator: '0', global_name: null, avatar: null },
          nick: null,
          avatar: null,
          roles,
          joined_at: '2026-01-01T00:00:00.000000+00:00',
          premium_since: null,
          deaf: false,
          mute: false,
          flags: 0,
          pending: false,
        });
      }
      const following = /^\/2\/users\/(\d+)\/following$/.exec(url.pathname);
      if (following) {
        if (req.headers.authorization !== `Bearer ${state.xToken}`)
          return json(res, 401, { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' });
        const all = state.follows.get(following[1]) ?? [];
        const max = Math.min(1000, Math.max(1, Number(url.searchParams.get('max_results') ?? '100')));
        const from = Number(url.searchParams.get('pagination_token') ?? '0');
        const page = all.slice(from, from + max);
        const meta: Record<string, unknown> = { result_count: page.length };
        if (from + max < all.length) meta.next_token = String(from + max);
        return json(res, 200, { data: page.map((id) => ({ id, name: `Account ${id}`, username: `acct${id}` })), meta });
      }
      json(res, 404, { message: '404: Not Found', code: 0 });
    };
    if (state.delayMs > 0) setTimeout(answer, state.delayMs);
    else answer();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as AddressInfo;
  state.discordUrl = `http://127.0.0.1:${port}/api/v10`;
  state.xUrl = `http://127.0.0.1:${port}`;
  return state;
}

/** A partner's verification endpoint: records each request and answers as `respond` says. */
export interface PartnerStandIn {
  url: string;
  received: { headers: IncomingHttpHeaders; body: string }[];
  respond: (body: Record<string, unknown>) => { status: number; body?: string; delayMs?: number };
  close: () => Promise<void>;
}

export async function startPartnerStandIn(): Promise<PartnerStandIn> {
  const state: PartnerStandIn = {
    url: '',
    received: [],
    respond: () => ({ status: 200, body: '{}' }),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      state.received.push({ headers: req.headers, body });
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // answered as told anyway
      }
      const a = state.respond(parsed);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body ?? '');
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/verify`;
  return state;
}
