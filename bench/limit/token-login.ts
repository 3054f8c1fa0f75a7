/**
 * The limit of a returning token login (issue 51, goal L1): the cheapest Node program that does
 * the service's database work for `POST /v1/user/auth/providerB/login`. Plain node:http, one pg
 * Pool per process, node:crypto for the JWE, the tokens at rest and the session JWT; the same one
 * statement (bench/limit/statements.ts) with the same parameters; the same answer's fields. No
 * framework, validation, rate limit, metrics or logging: what the service spends beyond this is its
 * own pipeline.
 *
 * Started by the bench: `PORT=... WORKERS=n POOL=m PG_URL=... TENANT_ID=... SHARED_SECRET=<hex>
 * SESSION_SECRET=... ENCRYPTION_KEY=<hex> node dist/bench/limit/token-login.js`. With WORKERS > 1 it
 * forks like the service's WEB_CONCURRENCY, so the two compare the same processes and pool. Its
 * statement and its answer are held to the service's by test/e2e/bench-limit.e2e-spec.ts.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, createSecretKey, randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import pg from 'pg';
import { answerOf, type Answer, type Layers, layersFrom, listen, runAsProgram, type Served } from './program.js';
import { PURGE_NONCES, RETURNING_TOKEN_LOGIN } from './statements.js';

const SESSION_TTL = 600;
const REFRESH_TTL = 30 * 24 * 3600;
const CLOCK_TOLERANCE = 60;

export interface TokenLoginLimit {
  pgUrl: string;
  pool: number;
  port: number;
  tenantId: string;
  /** The tenant's shared secret (hex), its login tokens' key. */
  sharedSecret: string;
  /** The service's SESSION_SECRET and ENCRYPTION_KEY (hex): its tokens and rows are the service's. */
  sessionSecret: string;
  encryptionKey: string;
  /** The server in front of the handler (the bench's build-up); node:http by default. */
  layers?: Layers;
}

/** One process of the limit, listening on 127.0.0.1; `close` ends its server and pool. */
export function serveTokenLogin(o: TokenLoginLimit): Promise<Served> {
  const pool = new pg.Pool({ connectionString: o.pgUrl, max: o.pool });
  const tenantId = o.tenantId;
  const tokenKey = createSecretKey(Buffer.from(o.sharedSecret, 'hex'));
  const atRest = Buffer.from(o.encryptionKey, 'hex');
  const sessionKey = createSecretKey(Buffer.from(o.sessionSecret, 'utf8'));
  // The service keeps the ciphertext of a provider token sent again unchanged (encryptRepeated).
  const repeated = new Map<string, string>();

  const encrypt = (value: string, context: string): string => {
    const id = createHash('sha256').update(`${context.length}:${context}${value}`).digest('base64url');
    let out = repeated.get(id);
    if (out === undefined) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', atRest, iv);
      cipher.setAAD(Buffer.from(context));
      const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      out = ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
      if (repeated.size > 10_000) repeated.clear();
      repeated.set(id, out);
    }
    return out;
  };

  const decrypt = (token: string): Record<string, unknown> | null => {
    const [header, , iv, ciphertext, tag] = token.split('.');
    try {
      const decipher = createDecipheriv('aes-256-gcm', tokenKey, Buffer.from(iv, 'base64url'), { authTagLength: 16 });
      decipher.setAAD(Buffer.from(header, 'ascii'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return JSON.parse(
        Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8'),
      ) as Record<string, unknown>;
    } catch {
      return null;
    }
  };

  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const JWT_HEADER = b64({ alg: 'HS256', typ: 'JWT' });
  const sessionToken = (userId: string, sid: string, now: number): string => {
    const body = `${JWT_HEADER}.${b64({ tid: tenantId, sid, iat: now, exp: now + SESSION_TTL, aud: 'cgs:session', iss: 'community-gaming-service', sub: userId })}`;
    return `${body}.${createHmac('sha256', sessionKey).update(body).digest('base64url')}`;
  };

  const login = async (headers: IncomingHttpHeaders, body: unknown): Promise<Answer> => {
    if (headers['x-tenant-id'] !== tenantId) return answerOf(401, { message: 'GENERIC_UNAUTHORIZED' });
    const token = typeof body === 'object' && body !== null ? (body as { token?: unknown }).token : undefined;
    const claims = typeof token === 'string' ? decrypt(token) : null;
    const nowS = Math.floor(Date.now() / 1000);
    if (!claims || typeof claims._nonce !== 'string' || typeof claims.subjectId !== 'string' || Number(claims.exp) < nowS - CLOCK_TOLERANCE)
      return answerOf(401, { message: 'GENERIC_UNAUTHORIZED' });
    const subject = claims.subjectId;
    const context = (field: string) => `identity:${tenantId}:providerB:${subject}:${field}`;
    const enc = (field: string) => (typeof claims[field] === 'string' ? encrypt(claims[field], context(field)) : null);
    const now = new Date();
    const sid = randomUUID();
    const refreshToken = `rt_${randomBytes(32).toString('base64url')}`;
    const { rows } = await pool.query<{ known: boolean; fresh: boolean; user_id: string | null }>({
      name: 'returning-token-login',
      text: RETURNING_TOKEN_LOGIN,
      values: [
        tenantId,
        'providerB',
        subject,
        now,
        enc('idToken'),
        enc('accessToken'),
        enc('refreshToken'),
        sid,
        createHash('sha256').update(refreshToken).digest('hex'),
        new Date(now.getTime() + REFRESH_TTL * 1000),
        'login_token',
        claims._nonce,
        new Date((Number(claims.exp) + CLOCK_TOLERANCE) * 1000),
        JSON.stringify([
          {
            id: randomUUID(),
            tenant_id: tenantId,
            type: 'user.logged_in',
            version: 1,
            occurred_at: now.toISOString(),
            payload: { userId: '', method: 'providerB' },
          },
        ]),
        false,
      ],
    });
    const step = rows[0];
    // A first login is the service's transactional path, outside this limit: the bench's measured run has none.
    if (!step.known) return answerOf(501, { message: 'first login: not part of the limit' });
    if (!step.fresh || !step.user_id) return answerOf(401, { message: 'GENERIC_UNAUTHORIZED', error: 'login_token_replayed' });
    // As the service does: one login in a hundred deletes the nonces that can no longer be replayed.
    if (randomInt(100) === 0) await pool.query({ name: 'purge-nonces', text: PURGE_NONCES, values: [now] });
    return answerOf(200, { userId: step.user_id, sessionToken: sessionToken(step.user_id, sid, nowS), refreshToken });
  };

  const route = {
    method: 'POST' as const,
    path: '/v1/user/auth/providerB/login',
    dto: async () => (await import('../../src/auth/dto/login.dto.js')).TokenLoginDto,
  };
  return listen(o.port, route, login, () => pool.end(), o.layers);
}

await runAsProgram(import.meta.url, (env) =>
  serveTokenLogin({
    pgUrl: env.PG_URL!,
    pool: Number(env.POOL ?? 10),
    port: Number(env.PORT ?? 3998),
    tenantId: env.TENANT_ID!,
    sharedSecret: env.SHARED_SECRET!,
    sessionSecret: env.SESSION_SECRET!,
    encryptionKey: env.ENCRYPTION_KEY!,
    layers: layersFrom(env),
  }),
);
