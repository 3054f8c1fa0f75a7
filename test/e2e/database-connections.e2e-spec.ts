import pg from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { DedicatedConnection } from '../../src/database/pg-connections.js';
import { preparedQuery } from '../../src/database/prepared-query.js';
import { adminUrl, createTestDatabase } from '../setup/test-database.js';
import { appEntities } from '../../src/app.entities.js';

/** Keeps this process busy (no I/O is read meanwhile), as a loaded instance is. */
function busyFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
const tick = () => new Promise((r) => setImmediate(r));

/**
 * The connection rule (src/database/pg-connections.ts) on a real server: a connection the server
 * terminates (57P01, what a fast shutdown or a failover sends to every session) is dropped and
 * replaced, never fatal to the process.
 */
describe('database connections: a terminated connection is dropped and replaced, never fatal', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase();
    admin = new pg.Client({ connectionString: adminUrl() });
    admin.on('error', () => undefined);
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await db.drop();
  });

  // Regression (issue 15.6): an instance exited with an unhandled 'error' event (57P01) when
  // PostgreSQL was stopped under load. The answer of a prepared read and the server's FATAL came in
  // one socket read; pg-pool handed the connection on to a waiting TypeORM query as it parsed the
  // answer, and TypeORM attaches its error listener a microtask later: the FATAL found no listener.
  it('survives the server terminating a pooled connection right after it answered a prepared read while a query waits for it', async () => {
    const ds = new DataSource(dataSourceOptions(db.url, appEntities, { poolSize: 1 }));
    await ds.initialize();
    try {
      const [{ pid }]: { pid: number }[] = await ds.query('SELECT pg_backend_pid() AS pid');
      // The only connection runs a prepared read (50 ms) while a TypeORM query waits for it.
      const prepared = preparedQuery(ds, 'SELECT pg_sleep(0.05)', []).then(
        () => 'answered',
        (e: Error) => e.message,
      );
      const waiting = ds.query('SELECT 1 AS one').then(
        () => 'answered',
        (e: Error) => e.message,
      );
      await tick();
      // Another session terminates that connection after the read has answered, while this process
      // is too busy to read: the answer and the FATAL arrive together.
      const terminated = admin.query('SELECT pg_terminate_backend($1) AS done FROM pg_sleep(0.3)', [pid]);
      await tick();
      busyFor(1_000);
      const outcomes = await Promise.all([prepared, waiting]);
      expect((await terminated).rows[0].done).toBe(true);
      // Each request either answered or failed with a connection error (a 503 to its client)...
      for (const o of outcomes) expect(o).toMatch(/^answered$|connection|terminat/i);
      // ...and the pool serves again on a new connection.
      const [{ pid: next }]: { pid: number }[] = await ds.query('SELECT pg_backend_pid() AS pid');
      expect(next).not.toBe(pid);
    } finally {
      await ds.destroy();
    }
  });

  it('a dedicated connection is replaced after the server terminates it, and reports a database that is down', async () => {
    const conn = new DedicatedConnection({ url: db.url, name: 'test' });
    try {
      const {
        rows: [{ pid }],
      } = await conn.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // The next statement gets a new connection (the lost one may fail a statement in flight, never the process).
      let next: number | undefined;
      for (let i = 0; i < 20 && next === undefined; i++) {
        next = await conn.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').then(
          (r) => r.rows[0].pid,
          () => undefined,
        );
      }
      expect(next).toBeDefined();
      expect(next).not.toBe(pid);
      const down = new DedicatedConnection({ url: db.url.replace(/:\d+\//, ':1/'), name: 'down', connectTimeoutMs: 500 });
      await expect(down.query('SELECT 1')).rejects.toThrow();
      await down.close();
    } finally {
      await conn.close();
    }
  });

  it('a keepConnected connection comes back by itself and runs its onConnect again (LISTEN)', async () => {
    const received: string[] = [];
    let connects = 0;
    const conn = new DedicatedConnection({
      url: db.url,
      name: 'listener',
      keepConnected: true,
      onConnect: async (client) => {
        connects++;
        client.on('notification', (n) => received.push(n.payload ?? ''));
        await client.query('LISTEN cgs_test');
      },
    });
    const eventually = async <T>(get: () => T | Promise<T>, ok: (v: T) => boolean): Promise<T> => {
      for (let i = 0; i < 200; i++) {
        const v = await get();
        if (ok(v)) return v;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('not within 5 s');
    };
    const listeners = () =>
      admin
        .query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE application_name = 'cgs:listener'")
        .then((r) => r.rows.map((x) => x.pid));
    try {
      conn.start();
      const [first] = await eventually(listeners, (p) => p.length === 1);
      await eventually(
        () => connects,
        (c) => c === 1,
      );
      await admin.query('SELECT pg_terminate_backend($1)', [first]);
      // Reconnected by itself (nothing asked for a statement), LISTEN issued again.
      const [second] = await eventually(listeners, (p) => p.length === 1 && p[0] !== first);
      expect(second).not.toBe(first);
      await eventually(
        () => connects,
        (c) => c === 2,
      );
      const notify = new pg.Client({ connectionString: db.url });
      await notify.connect();
      await notify.query("NOTIFY cgs_test, 'after the reconnect'");
      await notify.end();
      await eventually(
        () => received,
        (r) => r.includes('after the reconnect'),
      );
    } finally {
      await conn.close();
    }
  });
});
