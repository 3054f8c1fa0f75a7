/**
 * The limit of an XP grant (issue 51, goal L2): the cheapest Node program that does the service's
 * database work for `POST /v1/admin/resources/grants`. Plain node:http, one pg Pool per process,
 * the API key checked by its SHA-256 as the service's cached tenant lookup does; the same one
 * statement (bench/limit/statements.ts) with the same parameters, and the same answer's fields.
 * Like the service it records each grant in the audit log, gathered for 100 ms into one INSERT.
 * The cache bus's NOTIFY is left out: batched per linger interval, it is not per request.
 *
 * Started by the bench: `PORT=... WORKERS=n POOL=m PG_URL=... TENANT_ID=... API_KEY=... node
 * dist/bench/limit/grant.js`. Held to the service by test/e2e/bench-limit.e2e-spec.ts.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import pg from 'pg';
import { answerOf, type Answer, type Layers, layersFrom, listen, runAsProgram, type Served } from './program.js';
import { AUDIT_BATCH, GRANT } from './statements.js';

export interface GrantLimit {
  pgUrl: string;
  pool: number;
  port: number;
  tenantId: string;
  apiKey: string;
  /** The server in front of the handler (the bench's build-up); node:http by default. */
  layers?: Layers;
}

interface GrantBody {
  userId?: unknown;
  resourceTypeId?: unknown;
  amount?: unknown;
  reason?: unknown;
  reference?: unknown;
  idempotencyKey?: unknown;
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** One process of the limit, listening on 127.0.0.1; `close` ends its server and pool. */
export function serveGrant(o: GrantLimit): Promise<Served> {
  const pool = new pg.Pool({ connectionString: o.pgUrl, max: o.pool });
  const keyHash = sha256(o.apiKey);
  const actor = `api-key:${keyHash.slice(0, 12)}`;
  const audit = auditBatches(pool);

  const grant = async (headers: IncomingHttpHeaders, body: unknown): Promise<Answer> => {
    const key = headers['x-api-key'];
    if (typeof key !== 'string' || sha256(key) !== keyHash) return answerOf(401, { message: 'GENERIC_UNAUTHORIZED' });
    const b = (body ?? {}) as GrantBody;
    if (
      typeof body !== 'object' ||
      typeof b.userId !== 'string' ||
      typeof b.resourceTypeId !== 'string' ||
      !Number.isSafeInteger(b.amount) ||
      typeof b.reason !== 'string'
    )
      return answerOf(400, { message: 'generic_client_error' });
    const reference = typeof b.reference === 'string' ? b.reference : null;
    const idempotencyKey = typeof b.idempotencyKey === 'string' ? b.idempotencyKey : null;
    const now = new Date();
    const entry = { userId: b.userId, resourceTypeId: b.resourceTypeId, amount: b.amount, reason: b.reason, reference };
    const { rows } = await pool.query<{
      user_ok: boolean;
      type_kind: string | null;
      id: string | null;
      created_at: Date;
      balance: string;
      earned: string;
    }>({
      name: 'grant',
      text: GRANT,
      values: [
        b.userId,
        b.resourceTypeId,
        o.tenantId,
        now,
        b.reason,
        reference,
        o.tenantId,
        b.resourceTypeId,
        b.userId,
        b.amount,
        b.reason,
        reference,
        idempotencyKey,
        now,
        JSON.stringify([
          {
            id: randomUUID(),
            tenant_id: o.tenantId,
            type: 'resource.credited',
            version: 1,
            occurred_at: now.toISOString(),
            payload: { ...entry, kind: 'global', balance: 0 },
          },
        ]),
        false,
      ],
    });
    const r = rows[0];
    if (!r.user_ok || !r.type_kind) return answerOf(404, { message: 'not found' });
    // A replayed key is the service's second statement (the entry read back), outside this limit: the bench sends fresh keys.
    if (!r.id) return answerOf(501, { message: 'replay: not part of the limit' });
    audit.record([o.tenantId, actor, 'POST', '/v1/admin/resources/grants', '{}', JSON.stringify(b), 201, r.id, false, now]);
    return answerOf(201, {
      entryId: r.id,
      userId: b.userId,
      resourceTypeId: b.resourceTypeId,
      delta: b.amount,
      earnedDelta: b.amount,
      balance: Number(r.balance),
      earned: Number(r.earned),
      createdAt: r.created_at,
      replayed: false,
    });
  };

  const route = {
    method: 'POST' as const,
    path: '/v1/admin/resources/grants',
    dto: async () => (await import('../../src/resources/dto/ledger.dto.js')).GrantResourceDto,
  };
  const close = async () => {
    await audit.flush();
    await pool.end();
  };
  return listen(o.port, route, grant, close, o.layers);
}

/** Audit rows (the ten columns of AUDIT_BATCH), written 100 ms after the first of a batch, 500 a statement at most. */
function auditBatches(pool: pg.Pool): { record: (row: unknown[]) => void; flush: () => Promise<void> } {
  let queue: unknown[][] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    writing = writing.then(async () => {
      for (let i = 0; i < batch.length; i += 500) {
        const rows = batch.slice(i, i + 500);
        const columns = rows[0].map((_, c) => rows.map((r) => r[c]));
        await pool.query({ name: 'audit', text: AUDIT_BATCH, values: columns });
      }
    });
    return writing;
  };
  return {
    record: (row) => {
      queue.push(row);
      timer ??= setTimeout(() => void flush(), 100);
    },
    flush,
  };
}

await runAsProgram(import.meta.url, (env) =>
  serveGrant({
    pgUrl: env.PG_URL!,
    pool: Number(env.POOL ?? 10),
    port: Number(env.PORT ?? 3997),
    tenantId: env.TENANT_ID!,
    apiKey: env.API_KEY!,
    layers: layersFrom(env),
  }),
);
