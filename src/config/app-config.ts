import { plainToInstance, Transform } from 'class-transformer';
import { isIP } from 'node:net';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
  ValidationError,
  ValidateBy,
} from 'class-validator';
import { IsBlockchainsJson } from './blockchains.config.js';
import { secretWeakness } from './secret-strength.js';
import { IsQuestChainsJson } from './quest-chains.config.js';

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : typeof value === 'string'
      ? ['1', 'true', 'yes', 'on'].includes(value.toLowerCase())
      : value;

/**
 * The whole configuration of the service, read from the environment once at start-up and
 * validated. Nothing outside `src/config/` reads `process.env`.
 */
export class AppConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** A PostgreSQL connection URL. When absent, an embedded PostgreSQL is started. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  /**
   * Streaming replicas of DATABASE_URL's primary, as postgres:// URLs separated by commas. Reads
   * that tolerate lag (list pages, the catalogue, public profiles) go to a replica that has
   * replayed every write acknowledged before the read's cache was last dropped and before the
   * reader's own last write, and never lags by more than REPLICA_MAX_LAG_MS; otherwise, and when a
   * replica fails, to the primary. Logins, purchases, claims and a player's own data always read
   * the primary. Optional.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/[^,]+(,postgres(ql)?:\/\/[^,]+)*$/, {
    message: 'DATABASE_REPLICA_URLS must be postgres:// URLs separated by commas',
  })
  DATABASE_REPLICA_URLS?: string;

  /** A replica that has not replayed the primary's writes of this many milliseconds ago is skipped. */
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(600000)
  REPLICA_MAX_LAG_MS = 1000;

  /** How often the primary's and each replica's WAL position is read, in milliseconds (the lag's resolution). */
  @Transform(toInt)
  @IsInt()
  @Min(20)
  @Max(10000)
  REPLICA_PROBE_MS = 100;

  /** Where the embedded PostgreSQL keeps its data (git-ignored). */
  @IsString()
  DATA_DIR = '.data';

  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(65535)
  EMBEDDED_PG_PORT = 54329;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(200)
  DB_POOL_SIZE = 10;

  /**
   * Longest wait of a database statement for a row or table lock another transaction holds, in
   * milliseconds (0: no limit but the 15 s statement timeout). A request that waits longer answers
   * 503 `database_timeout` with Retry-After, having changed nothing, so one row held by a stuck
   * session cannot take every pooled connection. Start-up migrations are bound by it too.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60000)
  DB_LOCK_TIMEOUT_MS = 3000;

  /** Shared cache and rate-limit store for several instances. Optional. */
  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  /**
   * A Redis Cluster instead of one Redis server, for the same uses as REDIS_URL (ranks, rate
   * limits, notification wake-ups): a few of its nodes, comma-separated `host:port` (e.g.
   * `redis-0:6379,redis-1:6379,redis-2:6379`); the client learns the others and follows a failover.
   * Set REDIS_URL or this, not both (refused at start-up: one of them would be silently ignored).
   */
  @IsOptional()
  @ValidateBy({
    name: 'isRedisClusterNodes',
    validator: {
      // The grammar of parseRedisNodes (src/common/redis/new-redis.ts), which builds the client.
      validate: (value: unknown, args) =>
        typeof value === 'string' &&
        !(args?.object as { REDIS_URL?: string }).REDIS_URL &&
        value.split(',').every((entry) => {
          const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):(\d{1,5})$/.exec(entry.trim());
          return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 65535;
        }),
      defaultMessage: (args) =>
        (args?.object as { REDIS_URL?: string }).REDIS_URL
          ? 'set REDIS_URL or REDIS_CLUSTER_NODES, not both'
          : 'REDIS_CLUSTER_NODES must be comma-separated host:port (e.g. redis-0:6379,redis-1:6379)',
    },
  })
  REDIS_CLUSTER_NODES?: string;

  /**
   * Longest wait for one Redis command, in milliseconds. Redis is optional at run time too: a
   * command that fails or takes longer is answered without Redis (rate limits counted in this
   * process, ranks read from PostgreSQL, wake-ups polled) and Redis is left alone for a moment
   * (docs/decisions.md, "Optional servers").
   */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(10000)
  REDIS_COMMAND_TIMEOUT_MS = 500;

  /**
   * HMAC key for session tokens (at least 32 characters). When absent, a random key is generated
   * once and kept in the database, so every instance on that database shares it.
   */
  @IsOptional()
  @IsString()
  @Matches(/^.{32,}$/, { message: 'SESSION_SECRET must have at least 32 characters' })
  SESSION_SECRET?: string;

  /**
   * AES-256-GCM key for secrets at rest (64 hex characters). When absent, a random key is
   * generated once and kept in the database.
   */
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'ENCRYPTION_KEY must be 64 hex characters' })
  ENCRYPTION_KEY?: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  /** Largest accepted JSON body. */
  @Matches(/^\d+(b|kb|mb)$/i)
  BODY_LIMIT = '100kb';

  /**
   * How long a client may take to send a whole request (its headers and body), in milliseconds:
   * then 408 and the connection closes. Node checks every 30 s, so a stalled request ends within
   * this plus up to 30 s (Node's own default is 300 s).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  @Max(300000)
  REQUEST_TIMEOUT_MS = 30000;

  /**
   * After SIGTERM (or SIGINT), how long requests in flight may take before their connections are
   * cut and the process exits, in milliseconds. Below the 30 s orchestrators usually allow before
   * SIGKILL. Readiness answers 503 at once and every answer says `Connection: close`.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600000)
  SHUTDOWN_GRACE_MS = 20000;

  /**
   * After SIGTERM, how long the service goes on accepting connections (answering each with
   * `Connection: close`, readiness 503) before it stops listening, in milliseconds: the time a
   * load balancer takes to see the readiness change and stop sending new connections. Counted
   * within SHUTDOWN_GRACE_MS.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60000)
  SHUTDOWN_DELAY_MS = 0;

  /** scrypt cost parameter N (a power of two). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(1048576)
  PASSWORD_SCRYPT_COST = 32768;

  /** Serve Swagger UI at /docs and the document at /docs-json. Default: true, but false when NODE_ENV=production. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  SWAGGER_ENABLED: boolean;

  /**
   * The proxies whose `X-Forwarded-For` is believed (Express `trust proxy`): a hop count, or a
   * comma-separated list of `loopback`, `linklocal`, `uniquelocal`, addresses and CIDRs. Absent
   * (the default) or `false`: no proxy, the socket address is the client. `true` (everyone) is refused.
   */
  @IsOptional()
  @IsTrustProxy()
  TRUST_PROXY?: string;

  /**
   * Extra social account types accepted by `POST /v1/user/socials`, comma-separated, added to the
   * built-in list (e.g. `kick,bluesky`). Each: lowercase letters, digits, `_`, `-`, up to 32.
   */
  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,31}(,[a-z0-9][a-z0-9_-]{0,31})*$/, {
    message: 'SOCIAL_ACCOUNT_TYPES must be a comma-separated list of lowercase names',
  })
  SOCIAL_ACCOUNT_TYPES?: string;

  /** JWKS URL of providerA's OpenID Connect keys (providerA credential login). Optional: without it that login answers 503 `provider_not_configured`. */
  @IsOptional()
  @Matches(/^https?:\/\//, { message: 'PROVIDER_A_JWKS_URL must be an http(s) URL' })
  PROVIDER_A_JWKS_URL?: string;

  /** Expected `iss` of providerA credentials. Optional, like PROVIDER_A_JWKS_URL. */
  @IsOptional()
  @IsString()
  PROVIDER_A_ISSUER?: string;

  /** After a fetch of the providerA key set, an unknown key id triggers a new fetch only after this many seconds (key rotation). Keys are cached 10 minutes. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  PROVIDER_A_JWKS_COOLDOWN_SECONDS = 30;

  /** Master seed (64 hex characters) from which zkLogin salts are derived. When absent, one is generated once and kept in the database. Never change it: the addresses depend on it. */
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'ZKLOGIN_MASTER_SEED must be 64 hex characters' })
  ZKLOGIN_MASTER_SEED?: string;

  /** Clock skew accepted on login tokens (JWE `iat`/`exp`, ID token `exp`/`nbf`, SIWE times), in seconds. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300)
  LOGIN_CLOCK_TOLERANCE_SECONDS = 30;

  /** A SIWE message is accepted only while `issuedAt` is at most this many seconds old. */
  @Transform(toInt)
  @IsInt()
  @Min(30)
  @Max(86400)
  SIWE_MAX_AGE_SECONDS = 600;

  /** Window of the login and registration rate limits, in seconds. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  LOGIN_RATE_WINDOW_SECONDS = 60;

  /** Login/registration requests per client address (IPv6: per /64) per window, all login routes of a tenant. Default 300 (1000000 when NODE_ENV=test). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_RATE_LIMIT_IP?: number;

  /** Login/registration attempts per account (username, provider subject, SIWE address) and client address per window. Default 10 (1000000 when NODE_ENV=test). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_RATE_LIMIT_ACCOUNT?: number;

  /**
   * Attempts per account from all addresses per window. Over it, only addresses the account logged
   * in from in the last LOGIN_KNOWN_CLIENT_DAYS may try, for one window. Default 100 (1000000 when NODE_ENV=test).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  LOGIN_RATE_LIMIT_ACCOUNT_TOTAL?: number;

  /** How long an address an account logged in from stays "known" to it (it may still log in when the account's ceiling is reached). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(365)
  LOGIN_KNOWN_CLIENT_DAYS = 30;

  /**
   * Blockchains the avatar can be minted on, by name, as JSON:
   * `{"<name>": {"rpcUrl", "chainId", "contractAddress", "minterKey", "enabled"}}` (see
   * src/config/blockchains.config.ts). The minter key is never logged. Absent: no blockchain.
   */
  @IsOptional()
  @IsBlockchainsJson()
  BLOCKCHAINS?: string;

  /** Public base URL of this service (no trailing slash), used in NFT token URIs. */
  @Matches(/^https?:\/\/[^\s/]+(\/[^\s]*[^\s/])?$/, { message: 'PUBLIC_BASE_URL must be an http(s) URL without a trailing slash' })
  PUBLIC_BASE_URL = 'http://localhost:3000';

  /** Run the avatar mint worker in this instance (polling the mint jobs). */
  @Transform(toBool)
  @IsBoolean()
  MINT_WORKER_ENABLED = true;

  /** How often the mint worker looks for due jobs, in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(600000)
  MINT_POLL_INTERVAL_MS = 2000;

  /** Run the season worker in this instance: it opens the seasons of schedules and closes ended seasons (frozen standings, rewards). */
  @Transform(toBool)
  @IsBoolean()
  SEASON_WORKER_ENABLED = true;

  /** How often the season worker looks for schedules to extend and seasons to close, in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(600000)
  SEASON_POLL_INTERVAL_MS = 5000;

  /**
   * How long a claim on closing a season lasts without being renewed (renewed after every batch of
   * winners): an instance killed mid-close leaves it to another one after this, in milliseconds.
   */
  @Transform(toInt)
  @IsInt()
  @Min(500)
  @Max(3600000)
  SEASON_CLOSE_LEASE_MS = 30000;

  /**
   * Final places paid per transaction when a season closes (one bulk ledger credit, notification
   * and payout statement per batch): the balance rows of a batch stay locked until it commits.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(5000)
  SEASON_PAYOUT_BATCH = 250;

  /**
   * Final places frozen per statement when a season closes (each its own short transaction, so the
   * close takes no long hold on the database).
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(1000000)
  SEASON_FREEZE_CHUNK = 10000;

  /**
   * How long the season close rests after each step (a frozen chunk, a paid batch), in percent of
   * the time the step took: 50 gives live requests a third of the close's time back (100: half);
   * 0 runs the close flat out.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  SEASON_CLOSE_REST_PERCENT = 50;

  /** Attempts of a mint job before it is marked failed (transient RPC errors are retried with exponential backoff). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  MINT_MAX_ATTEMPTS = 8;

  /** How long the worker waits for a transaction receipt before trying again later, in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(3600000)
  MINT_RECEIPT_TIMEOUT_MS = 120000;

  /** Run the quest event completion worker in this instance (completes events whose end has passed). */
  @Transform(toBool)
  @IsBoolean()
  QUEST_EVENT_WORKER_ENABLED = true;

  /** How often the quest event completion worker looks for ended events, in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(3600000)
  QUEST_EVENT_COMPLETION_INTERVAL_MS = 5000;

  /**
   * Participants a quest event's completion takes per transaction, in each of its steps (final
   * scores, tickets, notices): a batch holds its locks and snapshot for well under a second.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(50000)
  QUEST_EVENT_COMPLETION_BATCH = 5000;

  /**
   * How long the completion worker rests after each batch, in percent of the time the batch took
   * (as `SEASON_CLOSE_REST_PERCENT` for a season close); 0 runs it flat out. A close through the
   * management API does not rest.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  QUEST_EVENT_COMPLETION_REST_PERCENT = 50;

  /**
   * Write domain events to the outbox (webhooks, the NATS sink). `false` writes none (every write
   * saves the outbox's round trip), for a deployment that integrates nothing and to measure what the
   * outbox costs; events of that time are never written, so never delivered. Same value on every instance.
   */
  @Transform(toBool)
  @IsBoolean()
  OUTBOX_ENABLED = true;

  /**
   * Run the webhook delivery worker in this instance. Every instance may: they share the due
   * deliveries through leases.
   */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_WORKER_ENABLED = true;

  /** How often the webhook worker looks for due deliveries written by other instances, in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(600000)
  WEBHOOK_POLL_INTERVAL_MS = 1000;

  /** The first retry's delay after a failed delivery, in milliseconds; each next one doubles (with jitter), at most 4 hours. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3600000)
  WEBHOOK_RETRY_BASE_MS = 30000;

  /** How long a delivery is retried before it is dead-lettered, in milliseconds (default 24 hours). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(7 * 24 * 3600 * 1000)
  WEBHOOK_RETRY_WINDOW_MS = 24 * 3600 * 1000;

  /** A receiver's time to answer one delivery, in milliseconds (connection included). */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60000)
  WEBHOOK_TIMEOUT_MS = 5000;

  /** Deliveries a worker claims at once and sends concurrently. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_BATCH_SIZE = 100;

  /**
   * Days an outbox event and a finished webhook delivery (delivered or dead, with its attempts)
   * are kept: afterwards a retention pass deletes them (hourly, in every instance), so the outbox
   * does not grow with every write forever. Events still owed to a delivery or to NATS are kept.
   * 0 keeps everything.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3650)
  OUTBOX_RETENTION_DAYS = 30;

  /**
   * Days an entry of the admin audit log is kept: afterwards an hourly pass (every instance)
   * deletes it. 0 keeps everything.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(36500)
  AUDIT_RETENTION_DAYS = 365;

  /**
   * Accept webhook URLs whose host resolves to a private, loopback, link-local or otherwise
   * non-public address (off: such URLs are refused when a subscription is saved and again at every
   * delivery, against server-side request forgery). For tests and closed networks.
   */
  @Transform(toBool)
  @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  /**
   * NATS server(s) with JetStream (`nats://host:4222`, comma-separated for a cluster). When set,
   * every event is also published to the subject `cgs.<tenant>.<type>`. Absent: no NATS.
   */
  @IsOptional()
  @Matches(/^(nats|tls):\/\/[^\s,]+(,(nats|tls):\/\/[^\s,]+)*$/, { message: 'NATS_URL must be nats:// URLs, comma-separated' })
  NATS_URL?: string;

  /** The JetStream stream the events go to (created for `cgs.>` when missing). */
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'NATS_STREAM must be 1-64 letters, digits, _ and -' })
  NATS_STREAM = 'CGS_EVENTS';

  /**
   * How long results that are the same for every caller are served from this process's memory, in
   * milliseconds (0: never): leaderboard pages, pages of filtered quest and event lists (the caller's
   * own state is read fresh), which community or resource type a URL names. Writes through this process show at
   * once; writes through other instances within this long.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60000)
  READ_CACHE_MS = 1000;

  /**
   * How long leaderboard pages, players' rankings and a player's own event statuses, registered
   * events and quest completions are served from this process's memory while the cache bus is listening, in milliseconds (never less than READ_CACHE_MS). Every change they
   * show is dropped at its commit, in every process through the bus, so this bounds only what a
   * lost drop could leave (a process that died between its commit and the bus); while the bus is
   * down they live READ_CACHE_MS like every other cached read.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600000)
  BOARD_CACHE_MS = 10000;

  /**
   * The tenant (slug or id) of a request that names none otherwise: no session token, no
   * `X-Tenant-Id`, no host name assigned to a tenant (docs/decisions.md, Tenants). The service
   * refuses to start when it names no tenant.
   */
  @IsOptional()
  @Matches(/^([a-z0-9][a-z0-9-]{1,62}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/, {
    message: 'DEFAULT_TENANT must be a tenant slug or id',
  })
  DEFAULT_TENANT?: string;

  /**
   * Live notification stream (`GET /v1/user/notifications/stream`): a comment is written on a
   * stream after this many milliseconds without an event, so proxies keep it open and both ends
   * notice a dead connection.
   */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(300000)
  NOTIFICATION_STREAM_HEARTBEAT_MS = 15000;

  /** Notification streams one user may hold open on one instance (a browser tab each). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  NOTIFICATION_STREAMS_PER_USER = 5;

  /**
   * Notification streams one instance (one process) holds open at most. When full, a tenant
   * holding fewer streams than another takes the oldest stream of the tenant holding most.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000000)
  NOTIFICATION_STREAMS_MAX = 10000;

  /**
   * The EVM chains `onchain` quest tasks read, JSON `{"<name>": {"rpcUrl": "...", "chainId": n}}`
   * (read-only, no key). The avatar mints' BLOCKCHAINS can be named too.
   */
  @IsOptional()
  @IsString()
  @IsQuestChainsJson()
  QUEST_CHAINS?: string;

  /** Discord's REST API, for the guild and role checks of `social` quest tasks. */
  @Matches(/^https?:\/\/\S+[^/]$/, { message: 'DISCORD_API_BASE_URL must be an http(s) URL without a trailing slash' })
  DISCORD_API_BASE_URL = 'https://discord.com/api/v10';

  /** X's API (v2 under `/2`), for the follow checks of `social` quest tasks. */
  @Matches(/^https?:\/\/\S+[^/]$/, { message: 'X_API_BASE_URL must be an http(s) URL without a trailing slash' })
  X_API_BASE_URL = 'https://api.x.com';

  /** How long a quest task's check may wait for another system (a platform, a chain), in milliseconds. */
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(30000)
  QUEST_VERIFIER_TIMEOUT_MS = 3000;

  /** Claims and task actions one player may make per minute (429 `claims_limited` beyond). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100000)
  QUEST_CLAIMS_PER_MINUTE = 30;

  /** Checks against other systems (platforms, chains, partners) one community's quests may make per minute. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000000)
  QUEST_VERIFIER_CALLS_PER_MINUTE = 600;

  /** How long another system's "not yet" for a player's task is kept before it is asked again, in milliseconds (0: never kept). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600000)
  QUEST_VERIFIER_CACHE_MS = 15000;

  /** Run pending migrations when the service starts. */
  @Transform(toBool)
  @IsBoolean()
  MIGRATIONS_RUN = true;

  /**
   * HTTP worker processes (Node cluster) sharing the port. 1 (default): one process, no cluster.
   * With more, the first worker runs the migrations, the start-up tasks and the background workers
   * (mint, quest event completion); the others only serve requests (docs/decisions.md).
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WEB_CONCURRENCY = 1;

  /**
   * Create the default tenant (or, on a fresh embedded database, the demo tenant) at start when
   * the database has none. The cluster primary turns it off in all workers but the first.
   */
  @Transform(toBool)
  @IsBoolean()
  STARTUP_TASKS = true;

  /**
   * Bearer token of `GET /metrics` (Prometheus text format, the whole cluster's figures): 32 to 512
   * visible ASCII characters, e.g. `openssl rand -hex 32`. Absent (the default): nothing is
   * measured and `/metrics` answers 404 like any unknown path.
   */
  @IsOptional()
  @Matches(/^[\x21-\x7e]{32,512}$/, { message: 'METRICS_TOKEN must be 32 to 512 visible ASCII characters (openssl rand -hex 32)' })
  METRICS_TOKEN?: string;

  /**
   * OpenTelemetry tracing is on when either OTLP endpoint is set (the standard variables; the SDK
   * also reads the other standard `OTEL_*` variables, e.g. OTEL_EXPORTER_OTLP_PROTOCOL,
   * OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER). Absent: nothing of it is loaded.
   */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The OTLP endpoint of traces only (the full URL, e.g. `http://collector:4318/v1/traces`). */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /** `service.name` of the spans. */
  @IsString()
  OTEL_SERVICE_NAME = 'community-gaming-service';
}

/** Whether the OpenTelemetry SDK is to be started (src/observability/tracing.ts). */
export const tracingEnabled = (config: Pick<AppConfig, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'>): boolean =>
  Boolean(config.OTEL_EXPORTER_OTLP_ENDPOINT || config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);

const NAMED_PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of TRUST_PROXY: a named range, an address, or an address/prefix-length. */
function isProxyEntry(entry: string): boolean {
  if (NAMED_PROXY_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Express `trust proxy` of the configuration: false (no proxy), a hop count, or the trusted addresses. */
export function trustProxy(config: Pick<AppConfig, 'TRUST_PROXY'>): false | number | string[] {
  const value = config.TRUST_PROXY?.trim();
  if (!value || value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  return value.split(',').map((e) => e.trim());
}

function IsTrustProxy() {
  return ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string') return false;
        const v = value.trim();
        if (v === 'false' || /^\d{1,2}$/.test(v)) return true;
        return v.split(',').every((e) => isProxyEntry(e.trim()));
      },
      defaultMessage: () =>
        'TRUST_PROXY must be false, a hop count, or a comma-separated list of loopback, linklocal, uniquelocal, IP addresses and CIDRs (never true: that trusts every client)',
    },
  });
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const defined = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = plainToInstance(AppConfig, defined, { exposeDefaultValues: true });
  const errors = validateSync(config, { whitelist: false, forbidUnknownValues: false });
  config.SWAGGER_ENABLED ??= config.NODE_ENV !== 'production';
  if (config.NODE_ENV === 'production') {
    for (const key of ['SESSION_SECRET', 'ENCRYPTION_KEY', 'DATABASE_URL'] as const) {
      if (!config[key])
        errors.push(Object.assign(new ValidationError(), { property: key, constraints: { required: `${key} is required in production` } }));
    }
    // A secret anyone can know (published, patterned, low entropy) lets them forge sessions (or read the metrics).
    for (const key of ['SESSION_SECRET', 'ENCRYPTION_KEY', 'METRICS_TOKEN'] as const) {
      const weakness = config[key] && !errors.some((e) => e.property === key) ? secretWeakness(key, config[key]) : undefined;
      if (weakness) errors.push(Object.assign(new ValidationError(), { property: key, constraints: { weak: weakness } }));
    }
  }
  if (errors.length > 0) {
    const lines = errors.flatMap((e) => Object.values(e.constraints ?? {}));
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return config;
}
