import pg from 'pg';

/** One PostgreSQL server of a multi-host `DATABASE_URL`. */
export interface DatabaseHost {
  host: string;
  port: number;
}

/**
 * The hosts of a libpq-style URL (`postgres://user@h1:5432,h2:5433/db?...`, as `pg_autoctl show uri`
 * prints it), and the same URL for each host alone. node-postgres connects to one host only, and
 * pg-connection-string reads a host list as one host name.
 */
export function splitHosts(url: string): { hosts: DatabaseHost[]; urlFor: (h: DatabaseHost) => string } {
  const m = /^(postgres(?:ql)?:\/\/)((?:[^@/?#]*@)?)([^/?#]*)(.*)$/.exec(url);
  if (!m) return { hosts: [], urlFor: () => url };
  const [, scheme, userinfo, authority, rest] = m;
  const hosts = authority
    .split(',')
    .filter((a) => a !== '')
    .map((a) => {
      const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(a);
      if (bracketed) return { host: bracketed[1], port: Number(bracketed[2] ?? 5432) };
      const [host, port] = a.split(':');
      return { host, port: Number(port ?? 5432) };
    });
  // libpq's own option; node-postgres would pass it to the server as a run-time parameter.
  const tail = rest
    .replace(/([?&])target_session_attrs=[^&]*(&|$)/, (_, lead: string, end: string) => (end ? lead : ''))
    .replace(/\?$/, '');
  return {
    hosts,
    urlFor: (h) => `${scheme}${userinfo}${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}${tail}`,
  };
}

/** Retry the search no sooner than this after it found no writable server. */
const RETRY_AFTER_FAILURE_MS = 250;

/**
 * Which server of a multi-host `DATABASE_URL` is the primary (writable): asked of every host at
 * once (`pg_is_in_recovery()`), kept until a connection to it fails or a write is refused as
 * read-only (a demoted primary), then asked again. With pg_auto_failover, Patroni or any manager
 * that promotes a standby, this is how the service follows a failover without a proxy in front.
 */
export class PrimaryLocator {
  private current?: DatabaseHost;
  private searching?: Promise<DatabaseHost>;
  private lastFailure?: { at: number; error: Error };
  readonly hosts: DatabaseHost[];
  private readonly urlFor: (h: DatabaseHost) => string;

  constructor(
    readonly url: string,
    private readonly connectTimeoutMs = 1000,
    private readonly now: () => number = Date.now,
  ) {
    ({ hosts: this.hosts, urlFor: this.urlFor } = splitHosts(url));
  }

  /** The primary's host, searched for when not known. */
  primary(): Promise<DatabaseHost> {
    if (this.current) return Promise.resolve(this.current);
    const failed = this.lastFailure;
    if (failed && this.now() - failed.at < RETRY_AFTER_FAILURE_MS) return Promise.reject(failed.error);
    this.searching ??= this.search().finally(() => {
      this.searching = undefined;
    });
    return this.searching;
  }

  /** The URL of the primary alone, for a client of its own. */
  async primaryUrl(): Promise<string> {
    return this.urlFor(await this.primary());
  }

  /** That host is not (or no longer) the primary: search again at the next connection. */
  forget(host?: DatabaseHost): void {
    if (!host || (this.current && host.host === this.current.host && host.port === this.current.port)) this.current = undefined;
  }

  private async search(): Promise<DatabaseHost> {
    const answers = await Promise.all(this.hosts.map((h) => this.isPrimary(h)));
    const found = this.hosts.find((_, i) => answers[i]);
    if (!found) {
      // The code the error filter reads as "the database is not there": 503 with Retry-After.
      const error = Object.assign(new Error(`no writable PostgreSQL among ${this.hosts.map((h) => `${h.host}:${h.port}`).join(', ')}`), {
        code: 'ECONNREFUSED',
      });
      this.lastFailure = { at: this.now(), error };
      throw error;
    }
    this.lastFailure = undefined;
    this.current = found;
    return found;
  }

  private async isPrimary(h: DatabaseHost): Promise<boolean> {
    const client = new pg.Client({
      connectionString: this.urlFor(h),
      connectionTimeoutMillis: this.connectTimeoutMs,
      application_name: 'cgs:primary-locator',
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ standby: boolean; readOnly: string }>(
        'SELECT pg_is_in_recovery() AS standby, current_setting(\'default_transaction_read_only\') AS "readOnly"',
      );
      return !rows[0].standby && rows[0].readOnly !== 'on';
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

const locators = new Map<string, PrimaryLocator>();

/** The process's one locator for this URL, or null when it names one host (nothing to find). */
export function primaryLocatorFor(url: string): PrimaryLocator | null {
  if (splitHosts(url).hosts.length < 2) return null;
  let locator = locators.get(url);
  if (!locator) locators.set(url, (locator = new PrimaryLocator(url)));
  return locator;
}

/** The URL to connect a client of its own with: the primary's alone when the URL names several. */
export async function connectableUrl(url: string): Promise<string> {
  return (await primaryLocatorFor(url)?.primaryUrl()) ?? url;
}

/** SQLSTATE 25006: a write on a server that is in recovery or read-only (a demoted primary). */
export const isReadOnlyRefusal = (err: unknown): boolean => (err as { code?: string } | null)?.code === '25006';

/**
 * The pool's client class for a multi-host URL: each new connection goes to the primary the
 * locator knows; a failed connection or a read-only refusal makes it search again, and a client
 * refused as read-only ends, so the pool drops it on release instead of lending it again.
 */
export function failoverClientClass(locator: PrimaryLocator): typeof pg.Client {
  return class FailoverClient extends pg.Client {
    private target?: DatabaseHost;

    override connect(): Promise<pg.Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): void;
    override connect(callback?: ((err: Error) => void) | ((err: null, c: pg.Client) => void)): Promise<pg.Client> | void {
      if (!callback) return new Promise((resolve, reject) => this.connect((err: Error | null) => (err ? reject(err) : resolve(this))));
      const cb = callback as (err: Error | null, c?: pg.Client) => void;
      locator.primary().then(
        (host) => {
          this.target = host;
          this.host = host.host;
          this.port = host.port;
          // The caller's callback runs inside pg's own, as pg calls it: the pool adds its 'error'
          // listener before the next message of the same read is parsed (a server that dies
          // right after accepting the connection sends its FATAL in that read; with no listener
          // yet, the process would crash on it).
          super.connect((err: Error | null) => {
            if (err) {
              locator.forget(host);
              cb(err);
            } else cb(null, this);
          });
        },
        (err: Error) => cb(err),
      );
    }

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // Every form of query() (promise, callback) runs through this wrapper; pg's overloads
      // cannot be overridden one by one.
      const query = super.query.bind(this) as (...a: unknown[]) => unknown;
      (this as unknown as { query: (...a: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const last = args[args.length - 1];
        if (typeof last === 'function') {
          args[args.length - 1] = (err: unknown, res: unknown) => {
            if (err) this.refused(err);
            (last as (e: unknown, r: unknown) => void)(err, res);
          };
        }
        const result = query(...args);
        if (result instanceof Promise) result.catch((err: unknown) => this.refused(err));
        return result;
      };
    }

    private refused(err: unknown): void {
      if (!isReadOnlyRefusal(err)) return;
      locator.forget(this.target);
      void this.end().catch(() => undefined);
    }
  };
}
