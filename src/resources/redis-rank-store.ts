import { Logger, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { RANGES_PER_DROP } from '../common/cache/range-cache.js';
import { isCluster, newRedis, type RedisClient, type RedisTarget } from '../common/redis/new-redis.js';
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { DomainEvents } from '../common/events/domain-events.js';
import type { PageRequest } from '../common/pagination/pagination.js';
import type { LeaderboardReadModel, PeopleRow, RankSourceRow } from './leaderboard.read-model.js';
import type { PostgresRankStore } from './pg-rank-store.js';
import type { RankPeople } from './rank-people.js';
import { earnedOfScore, memberOf, scoreOf, userOfMember } from './rank-member.js';
import { RankStore, type LeaderboardPage, type RankedUser, type ScoreChange, type UserRanking } from './rank-store.js';
import './resources.events.js';

/** Version of what a board holds (member encoding, hash values): a board of another version is rebuilt. */
export const RANK_FORMAT = '1';
/** Users per statement and per script when a board is rebuilt (a script blocks Redis while it runs: ~10 ms). */
const REBUILD_BATCH = 1_000;
/** Users per flush script (their rows are read in one statement). */
const FLUSH_BATCH = 500;
/** A rebuild holds the board's lock this long, renewed by every batch. */
const LOCK_MS = 30_000;
/** The half-built copy of an abandoned rebuild disappears after this. */
const BUILD_TTL_MS = 120_000;
/** How long a read waits for this process's own pending writes of the board before it asks PostgreSQL. */
const SETTLE_MS = 250;
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** How long Redis may disagree with PostgreSQL about a player's own amount before the board is rebuilt. */
export const BEHIND_GRACE_MS = 5_000;
/** At most one invalidation (so one rebuild) of a board per process in this period. */
const INVALIDATE_EVERY_MS = 60_000;
/** When a cluster node is lost, the boards this process wrote in this period are rebuilt (see `nodeLost`). */
const RECENT_WRITE_MS = 30_000;

/**
 * The Redis keys of one board (resource type ids are uuids, unique across tenants). The hash tag
 * `{...}` puts them in one slot: every script (and the flush's pipeline) touches one board only,
 * which Redis Cluster needs (a script's keys must be in one slot, CROSSSLOT otherwise).
 *
 * - `meta` hash: `state` = `ready` when `z`/`h` may be read, `fmt` = RANK_FORMAT, and while a
 *   rebuild runs `building` (its id) and `bepoch` (`epoch` when it began).
 * - `z` sorted set (see rank-member.ts) and `h` hash user id -> `<write id>|<member>` (an empty
 *   member: unranked), the member to remove when the user moves, and the value a writer compares.
 * - `zb`/`hb`: the same for the copy a rebuild fills; renamed over `z`/`h` when complete.
 * - `seq`: write ids (so no hash value is ever written twice); `lock`: the rebuilder;
 *   `epoch`: raised by an invalidation, so a rebuild that began before it is thrown away.
 */
function keysOf(boardId: string) {
  const t = `cgs:rank:{${boardId}}`;
  return {
    meta: `${t}:meta`,
    z: `${t}:z`,
    h: `${t}:h`,
    zb: `${t}:zb`,
    hb: `${t}:hb`,
    seq: `${t}:seq`,
    lock: `${t}:lock`,
    epoch: `${t}:epoch`,
  };
}

// Reads. nil when the board cannot answer (not built, other format): the caller reads PostgreSQL.
const PAGE = `
local m = redis.call('HMGET', KEYS[1], 'state', 'fmt')
if m[1] ~= 'ready' or m[2] ~= ARGV[1] then return false end
local rows = redis.call('ZRANGE', KEYS[2], ARGV[2], ARGV[3], 'WITHSCORES')
local first = 0
if #rows > 0 then first = redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. rows[2]) end
return {redis.call('ZCARD', KEYS[2]), first, rows}`;

const USER = `
local m = redis.call('HMGET', KEYS[1], 'state', 'fmt')
if m[1] ~= 'ready' or m[2] ~= ARGV[1] then return false end
local total = redis.call('ZCARD', KEYS[2])
local v = redis.call('HGET', KEYS[3], ARGV[2])
local member = v and string.match(v, '|(.*)$') or ''
if member == '' then return {total} end
local score = redis.call('ZSCORE', KEYS[2], member)
local r = redis.call('ZRANK', KEYS[2], member)
if not score or not r then return {-1} end
local n = tonumber(ARGV[3])
local above, below = {}, {}
if n > 0 and r > 0 then above = redis.call('ZRANGE', KEYS[2], math.max(0, r - n), r - 1, 'WITHSCORES') end
if n > 0 then below = redis.call('ZRANGE', KEYS[2], r + 1, r + n, 'WITHSCORES') end
local counts, seen = {}, {}
local function count(s)
  if not seen[s] then
    seen[s] = true
    counts[#counts + 1] = s
    counts[#counts + 1] = redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. s)
  end
end
count(score)
for i = 2, #above, 2 do count(above[i]) end
for i = 2, #below, 2 do count(below[i]) end
return {total, member, score, above, below, counts}`;

// A writer's copy of users' rows, each applied only if the user's hash values are still the ones
// the writer read before it read PostgreSQL (compare-and-set): a writer that read older rows than
// another one already wrote loses, and tries again with fresh rows. Applied to the live board when
// ready and to a rebuild's copy while one runs. Returns the users to try again.
const FLUSH = `
local m = redis.call('HMGET', KEYS[1], 'state', 'building')
local live = m[1] == 'ready'
local building = m[2] and true or false
local rejected = {}
local function apply(z, h, cur, uid, member, score, seq)
  local old = cur and string.match(cur, '|(.*)$') or ''
  if old ~= '' then redis.call('ZREM', z, old) end
  if member ~= '' then redis.call('ZADD', z, score, member) end
  redis.call('HSET', h, uid, seq .. '|' .. member)
end
for i = 1, #ARGV, 5 do
  local uid = ARGV[i]
  local curL = redis.call('HGET', KEYS[3], uid)
  local curB = redis.call('HGET', KEYS[5], uid)
  if (curL or '') ~= ARGV[i + 1] or (curB or '') ~= ARGV[i + 2] then
    rejected[#rejected + 1] = uid
  elseif live or building then
    local seq = redis.call('INCR', KEYS[6])
    if live then apply(KEYS[2], KEYS[3], curL, uid, ARGV[i + 3], ARGV[i + 4], seq) end
    if building then apply(KEYS[4], KEYS[5], curB, uid, ARGV[i + 3], ARGV[i + 4], seq) end
  end
end
return rejected`;

// Rebuild, step 1: one rebuilder per board (the lock), none when the board is ready already.
const BEGIN = `
local m = redis.call('HMGET', KEYS[1], 'state', 'fmt')
if m[1] == 'ready' and m[2] == ARGV[4] then return false end
if not redis.call('SET', KEYS[4], ARGV[2], 'NX', 'PX', ARGV[3]) then return false end
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'building', ARGV[1], 'bepoch', redis.call('GET', KEYS[5]) or '0')
return 1`;

// Rebuild, step 2 (per batch): rows read from PostgreSQL, added unless a writer's copy of the user
// (read after its commit, so at least as new) is there already.
const BATCH = `
if redis.call('HGET', KEYS[1], 'building') ~= ARGV[1] then return 0 end
if redis.call('GET', KEYS[4]) == ARGV[2] then redis.call('PEXPIRE', KEYS[4], ARGV[3]) end
local seq = 'b' .. redis.call('INCR', KEYS[5])
for i = 5, #ARGV, 3 do
  if redis.call('HSETNX', KEYS[3], ARGV[i], seq .. '|' .. ARGV[i + 1]) == 1 then
    redis.call('ZADD', KEYS[2], ARGV[i + 2], ARGV[i + 1])
  end
end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
return 1`;

// Rebuild, step 3: the copy replaces the board, unless an invalidation came meanwhile (epoch).
const FINISH = `
local m = redis.call('HMGET', KEYS[1], 'building', 'bepoch')
if m[1] ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 'building', 'bepoch')
if redis.call('GET', KEYS[6]) == ARGV[2] then redis.call('DEL', KEYS[6]) end
if (redis.call('GET', KEYS[7]) or '0') ~= m[2] then
  redis.call('DEL', KEYS[4], KEYS[5])
  return 0
end
redis.call('UNLINK', KEYS[2], KEYS[3])
if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('RENAME', KEYS[4], KEYS[2]); redis.call('PERSIST', KEYS[2]) end
if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('RENAME', KEYS[5], KEYS[3]); redis.call('PERSIST', KEYS[3]) end
redis.call('HSET', KEYS[1], 'state', 'ready', 'fmt', ARGV[3])
return 1`;

// The board may have missed writes: not read until rebuilt.
const INVALIDATE = `
redis.call('INCR', KEYS[2])
redis.call('HDEL', KEYS[1], 'state')
return 1`;

type Arg = string | number;
interface Scripts {
  rankPage(...args: Arg[]): Promise<[number, number, string[]] | null>;
  rankUser(...args: Arg[]): Promise<[number] | [number, string, string, string[], string[], (string | number)[]] | null>;
  rankFlush(...args: Arg[]): Promise<string[]>;
  rankBegin(...args: Arg[]): Promise<number | null>;
  rankBatch(...args: Arg[]): Promise<number>;
  rankFinish(...args: Arg[]): Promise<number>;
  rankInvalidate(...args: Arg[]): Promise<number>;
}

/**
 * Why a Redis read did not answer: the board is not built (`missing`: rebuild it), it holds what
 * PostgreSQL cannot have (`inconsistent`: a user deleted with their balances; invalidate and
 * rebuild), or the reader's own row is not there yet (`behind`: another instance's flush is on
 * its way; PostgreSQL answers this once).
 */
type Miss = 'missing' | 'inconsistent' | 'behind';

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Ranks from Redis sorted sets (one per resource type, event score boards included), shared by
 * every instance; PostgreSQL stays the source of truth and answers whenever Redis cannot answer
 * exactly. See docs/decisions.md "Rank store".
 *
 * - Writes: after each commit that changed a user's `earned` (`resource.earned-changed`), this
 *   process queues the user; a flush reads the users' rows from PostgreSQL (so Redis gets what
 *   committed, whatever order commits and flushes run in) and writes them with compare-and-set.
 * - A player's own ranking waits (up to SETTLE_MS) until this process's queued write of that
 *   player is in Redis, so a player sees their own grant at once; everything else (pages, other
 *   instances) sees a write a flush later.
 * - A board that is missing, of another format, or being rebuilt is read from PostgreSQL while one
 *   instance rebuilds it in batches. When a write to Redis fails, the board is marked here and read
 *   from PostgreSQL, and invalidated (rebuilt) as soon as Redis answers again.
 * - On a Redis Cluster (REDIS_CLUSTER_NODES) a board lives on the master of its slot. While that
 *   master is lost and until its replica takes over, the board's reads fail over to PostgreSQL
 *   and its writes mark it as above; the writes the replica may have missed are dealt with by
 *   `nodeLost`.
 */
export class RedisRankStore extends RankStore implements OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(RedisRankStore.name);
  readonly redis: RedisClient;
  private readonly scripts: Scripts;
  private readonly owner = randomUUID();
  /** Board -> its users to flush -> the scores they moved between since the last flush (for the caches in front). */
  private pending = new Map<string, Map<string, ScoreChange>>();
  private pendingDone = deferred();
  /** The round being flushed, the same way. */
  private inFlight = new Map<string, Map<string, ScoreChange>>();
  private inFlightDone: Promise<void> = Promise.resolve();
  private flushing?: Promise<void>;
  /** Boards whose Redis copy may have missed a write of this process: read from PostgreSQL until invalidated. */
  private readonly dirty = new Set<string>();
  private repairTimer?: NodeJS.Timeout;
  private readonly rebuilding = new Map<string, Promise<void>>();
  /** `board:user` -> when a ranking read first found Redis behind PostgreSQL for that player. */
  private readonly behindSince = new Map<string, number>();
  private readonly invalidatedAt = new Map<string, number>();
  /** Board -> when this process last wrote it in Redis (flush or rebuild batch). */
  private readonly wroteAt = new Map<string, number>();
  private closing = false;
  private lastErrorLog = 0;
  /**
   * Flushes and rebuilds run in the context the store was made in, not in that of the request
   * whose commit or read started them (request-scoped logs, traces and statement counts are the
   * request's own work).
   */
  private readonly background = new AsyncResource('RedisRankStore');

  constructor(
    target: RedisTarget,
    private readonly pg: PostgresRankStore,
    private readonly rows: LeaderboardReadModel,
    private readonly people: RankPeople,
    events: DomainEvents,
    commandTimeoutMs = 1_000,
  ) {
    super();
    // Fail fast rather than queue: a read that cannot reach Redis at once is served by PostgreSQL.
    this.redis = newRedis(target, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: commandTimeoutMs,
      connectTimeout: Math.max(1_000, 2 * commandTimeoutMs),
    });
    this.redis.on('error', (err: Error) => this.logError('redis', err));
    this.redis.on('ready', () => void this.repair());
    if (isCluster(this.redis)) this.redis.on('-node', () => this.nodeLost());
    const define = (name: keyof Scripts, keys: number, lua: string) => this.redis.defineCommand(name, { numberOfKeys: keys, lua });
    define('rankPage', 2, PAGE);
    define('rankUser', 3, USER);
    define('rankFlush', 6, FLUSH);
    define('rankBegin', 5, BEGIN);
    define('rankBatch', 5, BATCH);
    define('rankFinish', 7, FINISH);
    define('rankInvalidate', 2, INVALIDATE);
    this.scripts = this.redis as unknown as Scripts;
    events.afterCommit('resource.earned-changed', ({ resourceTypeId, userId, from, to }) =>
      this.enqueue(resourceTypeId, userId, { from, to }),
    );
  }

  async leaderboard(resourceTypeId: string, page: PageRequest): Promise<LeaderboardPage> {
    return (await this.redisLeaderboard(resourceTypeId, page)) ?? this.pg.leaderboard(resourceTypeId, page);
  }

  async userRanking(resourceTypeId: string, userId: string, around: number): Promise<UserRanking> {
    return (await this.redisUserRanking(resourceTypeId, userId, around)) ?? this.pg.userRanking(resourceTypeId, userId, around);
  }

  /** The page as Redis answers it; null when Redis cannot answer exactly now (PostgreSQL answers then). */
  redisLeaderboard(resourceTypeId: string, page: PageRequest): Promise<LeaderboardPage | null> {
    return this.fromRedis(resourceTypeId, () => this.readPage(resourceTypeId, page));
  }

  /** The ranking as Redis answers it; null when Redis cannot answer exactly now (PostgreSQL answers then). */
  redisUserRanking(resourceTypeId: string, userId: string, around: number): Promise<UserRanking | null> {
    const who = userId.toLowerCase();
    return this.fromRedis(resourceTypeId, () => this.readUser(resourceTypeId, who, around), who);
  }

  /** Whether Redis holds a complete, current copy of the board (for tests and health). */
  async isReady(resourceTypeId: string): Promise<boolean> {
    const [state, fmt] = await this.redis.hmget(keysOf(resourceTypeId).meta, 'state', 'fmt');
    return state === 'ready' && fmt === RANK_FORMAT;
  }

  /** Until this process's queued writes are in Redis (or failed) and its rebuilds have ended. */
  async drain(): Promise<void> {
    while (this.flushing || this.rebuilding.size > 0) await Promise.all([this.flushing, ...this.rebuilding.values()]);
  }

  /** No new rebuild; what is queued is flushed (requests may still commit until the server closes). */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    clearInterval(this.repairTimer);
    await this.drain().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drain().catch(() => undefined);
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  // ---- reads

  /**
   * The answer from Redis, or null when PostgreSQL must answer (and what to do about it). `who`:
   * the player whose own row a ranking read compares with PostgreSQL.
   */
  private async fromRedis<T>(boardId: string, read: () => Promise<T | Miss>, who?: string): Promise<T | null> {
    if (this.redis.status !== 'ready' || this.dirty.has(boardId)) return null;
    if (!(await this.settled(boardId, who)) || this.dirty.has(boardId)) return null;
    try {
      const r = await read();
      if (r === 'inconsistent') {
        await this.invalidate(boardId);
        return null;
      }
      if (r === 'missing') {
        this.rebuildSoon(boardId);
        return null;
      }
      if (r === 'behind') {
        if (who && this.stillBehind(boardId, who)) await this.invalidate(boardId);
        return null;
      }
      if (who) this.behindSince.delete(`${boardId}:${who}`);
      return r;
    } catch (err) {
      this.logError('rank read', err);
      return null;
    }
  }

  /**
   * Whether Redis has disagreed with PostgreSQL about this player's own amount for longer than
   * BEHIND_GRACE_MS (a flush takes milliseconds): then a write was lost (a process died between
   * its commit and its flush, or rows were written around the ledger) and the board is rebuilt.
   */
  private stillBehind(boardId: string, userId: string): boolean {
    const key = `${boardId}:${userId}`;
    const now = Date.now();
    const since = this.behindSince.get(key);
    if (since === undefined) {
      if (this.behindSince.size >= 10_000) this.behindSince.clear();
      this.behindSince.set(key, now);
      return false;
    }
    if (now - since < BEHIND_GRACE_MS) return false;
    this.behindSince.delete(key);
    return true;
  }

  /** The board is not read until rebuilt (at most once per INVALIDATE_EVERY_MS per board and process: a rebuild reads every row). */
  private async invalidate(boardId: string): Promise<void> {
    const now = Date.now();
    if (now - (this.invalidatedAt.get(boardId) ?? 0) < INVALIDATE_EVERY_MS) return;
    this.invalidatedAt.set(boardId, now);
    const k = keysOf(boardId);
    await this.scripts.rankInvalidate(k.meta, k.epoch);
    this.rebuildSoon(boardId);
  }

  private async readPage(boardId: string, page: PageRequest): Promise<LeaderboardPage | Miss> {
    const k = keysOf(boardId);
    const r = await this.scripts.rankPage(k.meta, k.z, RANK_FORMAT, page.offset, page.offset + page.limit - 1);
    if (!r) return 'missing';
    const [total, first, flat] = r;
    const entries = pairs(flat);
    const people = entries.length
      ? await this.people.people(
          boardId,
          entries.map((e) => e.userId),
          null,
        )
      : null;
    const names = namesOf(people);
    let rank = 0;
    const items: RankedUser[] = [];
    for (const [i, e] of entries.entries()) {
      const who = names.get(e.userId);
      // A user gone from PostgreSQL (deleted with their balances, no ledger event): the set is stale.
      if (!who) return 'inconsistent';
      if (i === 0) rank = first + 1;
      else if (e.amount !== entries[i - 1].amount) rank = page.offset + i + 1;
      items.push({ rank, userId: e.userId, handle: who.handle, displayName: who.display_name, amount: e.amount });
    }
    return { items, total };
  }

  private async readUser(boardId: string, userId: string, around: number): Promise<UserRanking | Miss> {
    const k = keysOf(boardId);
    const n = Math.max(0, Math.min(100, Math.trunc(around)));
    const r = await this.scripts.rankUser(k.meta, k.z, k.h, RANK_FORMAT, userId, n);
    if (!r) return 'missing';
    if (r[0] === -1) return 'inconsistent';
    const totalRanked = Number(r[0]);
    if (r.length === 1) {
      const people = await this.people.people(boardId, [], userId);
      // Redis says unranked while PostgreSQL has a score: a write not flushed yet (or lost: then a
      // rebuild repairs it), so PostgreSQL answers.
      if (people.mine && people.mine.earned !== '0') return 'behind';
      const balance = people.mine ? Number(people.mine.balance) : 0;
      return { rank: null, amount: 0, balance, totalRanked, above: [], below: [] };
    }
    const [, , score, aboveFlat, belowFlat, countsFlat] = r;
    const above = new Map<string, number>();
    for (let i = 0; i < countsFlat.length; i += 2) above.set(String(countsFlat[i]), Number(countsFlat[i + 1]));
    const aboveRows = pairs(aboveFlat);
    const belowRows = pairs(belowFlat);
    const people = await this.people.people(
      boardId,
      [...aboveRows, ...belowRows].map((e) => e.userId),
      userId,
    );
    const names = namesOf(people);
    const amount = earnedOfScore(score);
    const toRanked = (e: Entry): RankedUser | null => {
      const who = names.get(e.userId);
      return who
        ? { rank: above.get(e.score)! + 1, userId: e.userId, handle: who.handle, displayName: who.display_name, amount: e.amount }
        : null;
    };
    const listed = [...aboveRows.map(toRanked), ...belowRows.map(toRanked)];
    if (!people.mine || listed.includes(null)) return 'inconsistent';
    // The player's own amount must be what PostgreSQL holds (their balance comes from there).
    if (people.mine.earned !== String(amount)) return 'behind';
    return {
      rank: above.get(score)! + 1,
      amount,
      balance: Number(people.mine.balance),
      totalRanked,
      above: listed.slice(0, aboveRows.length) as RankedUser[],
      below: listed.slice(aboveRows.length) as RankedUser[],
    };
  }

  // ---- writes

  private enqueue(boardId: string, userId: string, change: ScoreChange): void {
    let users = this.pending.get(boardId);
    if (!users) this.pending.set(boardId, (users = new Map<string, ScoreChange>()));
    const who = userId.toLowerCase();
    const had = users.get(who);
    const lo = Math.min(change.from, change.to, had ? Math.min(had.from, had.to) : Infinity);
    const hi = Math.max(change.from, change.to, had ? Math.max(had.from, had.to) : -Infinity);
    users.set(who, { from: lo, to: hi });
    this.kick();
  }

  private kick(): void {
    if (this.flushing) return;
    this.flushing = this.background
      .runInAsyncScope(() => this.flushLoop())
      .finally(() => {
        this.flushing = undefined;
        // Queued between the loop's last look and now.
        if (this.pending.size > 0) this.kick();
      });
  }

  /** Flush rounds back to back while writes keep coming; each round takes what was queued before it. */
  private async flushLoop(): Promise<void> {
    await yieldToRequests(); // let the commits of this tick queue up: one round for all of them
    while (this.pending.size > 0) {
      const round = this.pending;
      const done = this.pendingDone;
      this.pending = new Map();
      this.pendingDone = deferred();
      this.inFlight = round;
      this.inFlightDone = done.promise;
      try {
        await Promise.all([...round].map(([boardId, users]) => this.flushBoard(boardId, users)));
      } finally {
        this.inFlight = new Map();
        done.resolve();
      }
    }
  }

  private async flushBoard(boardId: string, changes: Map<string, ScoreChange>): Promise<void> {
    const k = keysOf(boardId);
    const users = [...changes.keys()];
    for (let i = 0; i < users.length; i += FLUSH_BATCH) {
      const chunk = users.slice(i, i + FLUSH_BATCH);
      try {
        if (this.dirty.has(boardId)) return; // it will be rebuilt from PostgreSQL
        // The values to compare are read before the rows (see FLUSH).
        const seen = await this.redis
          .pipeline()
          .hmget(k.h, ...chunk)
          .hmget(k.hb, ...chunk)
          .exec();
        if (!seen || seen.some(([err]) => err)) throw seen?.find(([err]) => err)?.[0] ?? new Error('pipeline aborted');
        const [live, building] = seen.map(([, v]) => v as (string | null)[]);
        const rows = new Map((await this.rows.entries(boardId, chunk)).map((r) => [r.user_id, r]));
        const args: Arg[] = [];
        chunk.forEach((userId, j) => {
          const row = rows.get(userId);
          const ranked = row && row.earned !== '0';
          args.push(userId, live[j] ?? '', building[j] ?? '', ranked ? member(row) : '', ranked ? scoreOf(row.earned) : '0');
        });
        const retry = new Set(await this.scripts.rankFlush(k.meta, k.z, k.h, k.zb, k.hb, k.seq, ...args));
        this.wroteAt.set(boardId, Date.now());
        const landed = chunk.filter((userId) => !retry.has(userId));
        for (const userId of retry) this.enqueue(boardId, userId, changes.get(userId)!);
        if (landed.length > RANGES_PER_DROP) this.boardChanged(boardId);
        else for (const userId of landed) this.boardChanged(boardId, changes.get(userId));
      } catch (err) {
        this.logError('rank write', err);
        this.markDirty(boardId);
        return;
      }
    }
  }

  /**
   * Resolves true once this process's queued write of `userId` on the board is in Redis; false
   * after SETTLE_MS. Only a player's own ranking waits, and only for their own write: a page (or
   * another player's ranking) is served as Redis has it, a flush behind like on any other instance,
   * and a page cached meanwhile is dropped when the flush lands (`boardChanged`). Waiting for every
   * queued write of the board made every read wait under a steady stream of writes, and fall back
   * to PostgreSQL's rank queries whenever a flush took longer than SETTLE_MS.
   */
  private async settled(boardId: string, userId?: string): Promise<boolean> {
    if (userId === undefined) return true;
    const user = userId.toLowerCase();
    const wait = this.pending.get(boardId)?.has(user)
      ? this.pendingDone.promise
      : this.inFlight.get(boardId)?.has(user)
        ? this.inFlightDone
        : null;
    if (!wait) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), SETTLE_MS)));
    try {
      return await Promise.race([wait.then(() => true), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  // ---- failures and rebuilds

  private markDirty(boardId: string): void {
    this.dirty.add(boardId);
    this.repairTimer ??= setInterval(() => void this.repair(), 1_000);
    this.repairTimer.unref();
  }

  /**
   * A connection to a cluster node ended. When the node was a master, a replica takes its slots
   * over with what had reached it, and replication is asynchronous: a write acknowledged just before
   * may be missing there, and a board's copy would stay behind PostgreSQL with no error anywhere.
   * So the boards this process wrote lately are read from PostgreSQL and invalidated (rebuilt) as
   * soon as their slot answers again. A lost replica (or a connection closed for another reason)
   * costs a needless rebuild of those boards; a failover is rare.
   */
  private nodeLost(): void {
    const since = Date.now() - RECENT_WRITE_MS;
    for (const [boardId, at] of this.wroteAt) {
      this.wroteAt.delete(boardId);
      if (at >= since) this.markDirty(boardId);
    }
  }

  /** Invalidates the boards this process may have left behind, once Redis answers again. */
  private async repair(): Promise<void> {
    for (const boardId of [...this.dirty]) {
      if (this.redis.status !== 'ready') return;
      try {
        const k = keysOf(boardId);
        await this.scripts.rankInvalidate(k.meta, k.epoch);
        this.dirty.delete(boardId);
      } catch (err) {
        this.logError('rank invalidation', err);
        return;
      }
    }
    if (this.dirty.size === 0) {
      clearInterval(this.repairTimer);
      this.repairTimer = undefined;
    }
  }

  private rebuildSoon(boardId: string): void {
    if (this.rebuilding.has(boardId) || this.closing) return;
    const run = this.background
      .runInAsyncScope(() => this.rebuild(boardId))
      .catch((err: unknown) => this.logError('rank rebuild', err))
      .finally(() => this.rebuilding.delete(boardId));
    this.rebuilding.set(boardId, run);
  }

  /**
   * Copies the board from PostgreSQL into Redis, batch after batch (primary key ranges), while
   * reads are served by PostgreSQL and writes go to both copies. Several instances may try at
   * once: the lock lets one through, and a rebuild whose lock was lost cannot finish.
   */
  private async rebuild(boardId: string): Promise<void> {
    const k = keysOf(boardId);
    const build = randomUUID();
    if (!(await this.scripts.rankBegin(k.meta, k.zb, k.hb, k.lock, k.epoch, build, this.owner, LOCK_MS, RANK_FORMAT))) return;
    let after = NIL_UUID;
    for (;;) {
      if (this.closing) return;
      const rows = await this.rows.rankedAfter(boardId, after, REBUILD_BATCH);
      if (rows.length > 0) {
        const args: Arg[] = [];
        for (const row of rows) args.push(row.user_id, member(row), scoreOf(row.earned));
        if (!(await this.scripts.rankBatch(k.meta, k.zb, k.hb, k.lock, k.seq, build, this.owner, LOCK_MS, BUILD_TTL_MS, ...args))) return;
        this.wroteAt.set(boardId, Date.now());
        after = rows[rows.length - 1].user_id;
      }
      if (rows.length < REBUILD_BATCH) break;
      await yieldToRequests();
    }
    if (await this.scripts.rankFinish(k.meta, k.z, k.h, k.zb, k.hb, k.lock, k.epoch, build, this.owner, RANK_FORMAT))
      this.boardChanged(boardId);
  }

  /** One line every 10 s at most: an outage must not flood the log. */
  private logError(what: string, err: unknown): void {
    const now = Date.now();
    if (now - this.lastErrorLog < 10_000) return;
    this.lastErrorLog = now;
    this.logger.warn(`${what} failed, ranks are read from PostgreSQL: ${err instanceof Error ? err.message : String(err)}`);
  }
}

interface Entry {
  userId: string;
  score: string;
  amount: number;
}

/** [member, score, member, score, ...] as ZRANGE WITHSCORES returns it. */
function pairs(flat: string[]): Entry[] {
  const out: Entry[] = [];
  for (let i = 0; i < flat.length; i += 2)
    out.push({ userId: userOfMember(flat[i]), score: flat[i + 1], amount: earnedOfScore(flat[i + 1]) });
  return out;
}

function namesOf(people: PeopleRow | null): Map<string, { handle: string; display_name: string | null }> {
  return new Map((people?.users ?? []).map((u) => [u.id, u]));
}

function member(row: RankSourceRow): string {
  return memberOf({ userId: row.user_id, earned: row.earned, earnedAtMicros: row.at });
}
