import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import {
  Empty,
  Field,
  FormFooter,
  instant,
  Loading,
  num,
  numOrDefault,
  Pager,
  text,
  useLoad,
  usePaged,
  useSubmit,
  statusWord,
  when,
} from '../ui.tsx';
import { useResourceTypes } from './Community.tsx';
import { useCommunities } from './Events.tsx';

type SeasonStatus = 'upcoming' | 'live' | 'closing' | 'closed';
type RewardType = Schemas['SeasonRewardDto']['type'];
type RewardView = Schemas['SeasonRewardViewDto'];

/** The three lists an operator looks at: what runs now, what is scheduled, what is over. */
const VIEWS: { key: string; label: string; statuses: SeasonStatus[] }[] = [
  { key: 'current', label: 'Current', statuses: ['live', 'closing'] },
  { key: 'scheduled', label: 'Scheduled', statuses: ['upcoming'] },
  { key: 'past', label: 'Past', statuses: ['closed'] },
];
const STATUS_TEXT: Record<SeasonStatus, string> = {
  upcoming: 'Scheduled',
  live: 'Live',
  closing: 'Closing (paying rewards)',
  closed: 'Closed',
};

export function SeasonBadge({ status }: { status: string }) {
  return <span className={`badge season-${status}`}>{STATUS_TEXT[status as SeasonStatus] ?? status}</span>;
}

/** "Ranks 1–3", "Top 10 %". */
export function rewardRange(r: Pick<RewardView, 'fromRank' | 'toRank' | 'topPercent'>): string {
  if (r.topPercent !== null) return `Top ${r.topPercent} %`;
  return r.fromRank === r.toRank ? `Rank ${r.fromRank}` : `Ranks ${r.fromRank}–${r.toRank}`;
}

/** A community's seasons: current, scheduled and past ones, the recurring schedules, and a new season. */
export function Seasons() {
  const communities = useCommunities();
  const [communityId, setCommunityId] = useState('');
  const chosen = communityId || communities.data?.[0]?.id || '';
  const [view, setView] = useState('current');
  const [tick, setTick] = useState(0);
  return (
    <section>
      <h1>Seasons</h1>
      <div className="toolbar">
        <select value={chosen} onChange={(e) => setCommunityId(e.target.value)} aria-label="community">
          {communities.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <Loading loading={communities.loading && !communities.data} error={communities.error} />
      {chosen ? (
        <>
          <nav className="tabs" aria-label="season lists">
            {VIEWS.map((v) => (
              <button
                key={v.key}
                type="button"
                className={v.key === view ? 'tab active' : 'tab'}
                aria-pressed={v.key === view}
                onClick={() => setView(v.key)}
              >
                {v.label}
              </button>
            ))}
          </nav>
          {VIEWS.filter((v) => v.key === view).map((v) => (
            <SeasonList key={`${v.key}-${tick}`} communityId={chosen} statuses={v.statuses} />
          ))}
          <Schedules communityId={chosen} tick={tick} />
          <CreateSeason communityId={chosen} onCreated={() => setTick((t) => t + 1)} />
        </>
      ) : null}
    </section>
  );
}

/**
 * One list per status the API filters on (`current` is live and closing: two pages side by side
 * would be odd, so each status is its own paged table, the empty ones hidden).
 */
function SeasonList({ communityId, statuses }: { communityId: string; statuses: SeasonStatus[] }) {
  return (
    <>
      {statuses.map((s) => (
        <SeasonTable key={s} communityId={communityId} status={s} hideEmpty={statuses.length > 1 && s !== statuses[0]} />
      ))}
    </>
  );
}

function SeasonTable({ communityId, status, hideEmpty }: { communityId: string; status: SeasonStatus; hideEmpty: boolean }) {
  const list = usePaged(
    (page) => ok(api().GET('/v1/admin/seasons', { params: { query: { communityId, status, page, limit: 10 } } })),
    [communityId, status],
  );
  if (hideEmpty && list.data?.total === 0) return null;
  return (
    <div>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No {STATUS_TEXT[status].toLowerCase()} season.</Empty> : null}
      {list.data && list.data.items.length > 0 ? (
        <table aria-label={`${status} seasons`}>
          <thead>
            <tr>
              <th>Season</th>
              <th>Resource</th>
              <th>Status</th>
              <th>Starts</th>
              <th>Ends</th>
              <th className="num">Ranked</th>
              <th>Rewards</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link to={`/seasons/${s.id}`}>{s.name}</Link>
                </td>
                <td>
                  <code>{s.resourceSlug}</code>
                </td>
                <td>
                  <SeasonBadge status={s.status} />
                </td>
                <td>{when(s.startsAt)}</td>
                <td>{when(s.endsAt)}</td>
                <td className="num">{s.ranked ?? '—'}</td>
                <td className="small">{s.rewards.map((r) => `${rewardRange(r)}: ${r.amount} × ${r.type}`).join('; ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </div>
  );
}

function Schedules({ communityId, tick }: { communityId: string; tick: number }) {
  const list = usePaged(
    (page) => ok(api().GET('/v1/admin/season-schedules', { params: { query: { communityId, page, limit: 10 } } })),
    [communityId, tick],
  );
  const [error, setError] = useState<string | null>(null);
  const toggle = async (s: Schemas['SeasonScheduleDto']) => {
    setError(null);
    try {
      await ok(
        api().PATCH('/v1/admin/season-schedules/{scheduleId}', { params: { path: { scheduleId: s.id } }, body: { active: !s.active } }),
      );
      list.reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div>
      <h2>Recurring schedules</h2>
      <Loading loading={list.loading && !list.data} error={list.error ?? error ?? undefined} />
      {list.data && list.data.items.length === 0 ? <Empty>No schedule: every season is defined by hand.</Empty> : null}
      {list.data && list.data.items.length > 0 ? (
        <table aria-label="season schedules">
          <thead>
            <tr>
              <th>Schedule</th>
              <th>Cron</th>
              <th>Time zone</th>
              <th>Next season opens</th>
              <th>Rewards</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((s) => (
              <tr key={s.id}>
                <td>
                  {s.name} {s.active ? null : <span className="badge">stopped</span>}
                </td>
                <td>
                  <code>{s.cron}</code>
                </td>
                <td>{s.timeZone}</td>
                <td>{s.active ? when(s.nextStartsAt) : '—'}</td>
                <td className="small">{s.rewards.map((r) => `${rewardRange(r)}: ${r.amount} × ${r.type}`).join('; ') || '—'}</td>
                <td>
                  <button type="button" className="link" onClick={() => void toggle(s)}>
                    {s.active ? 'Stop' : 'Resume'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </div>
  );
}

interface RewardRow {
  key: number;
  range: 'ranks' | 'percent';
}

const SEASON_FIELDS = ['name', 'resourceTypeId', 'startsAt', 'endsAt', 'cron', 'timeZone', 'reasons', 'rewards'];

/**
 * A one-off season (a window) or a recurring schedule (cron in a time zone), with its rank
 * rewards. A reward's fields are named as the API names them (`rewards.0.fromRank`), so its
 * validation messages land next to them.
 */
function CreateSeason({ communityId, onCreated }: { communityId: string; onCreated: () => void }) {
  const types = useResourceTypes(communityId);
  const navigate = useNavigate();
  const [mode, setMode] = useState<'window' | 'recurring'>('recurring');
  const [rows, setRows] = useState<RewardRow[]>([{ key: 0, range: 'ranks' }]);
  const [nextKey, setNextKey] = useState(1);
  const rewardFields = rows.flatMap((_, i) =>
    ['fromRank', 'toRank', 'topPercent', 'type', 'refId', 'amount'].map((f) => `rewards.${i}.${f}`),
  );
  const f = useSubmit(
    async (d) => {
      const rewards = rows.map((r, i) => {
        const p = `rewards.${i}.`;
        return {
          ...(r.range === 'ranks'
            ? { fromRank: num(d, `${p}fromRank`), toRank: num(d, `${p}toRank`) }
            : { topPercent: num(d, `${p}topPercent`) }),
          type: (text(d, `${p}type`) ?? 'resource') as RewardType,
          refId: text(d, `${p}refId`) ?? '',
          amount: numOrDefault(d, `${p}amount`),
        };
      });
      const reasons = text(d, 'reasons')
        ?.split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '');
      const rules = { communityId, resourceTypeId: text(d, 'resourceTypeId') ?? '', name: text(d, 'name') ?? '', reasons, rewards };
      if (mode === 'window') {
        const s = await ok(
          api().POST('/v1/admin/seasons', { body: { ...rules, startsAt: instant(d, 'startsAt'), endsAt: instant(d, 'endsAt') ?? '' } }),
        );
        void navigate(`/seasons/${s.id}`);
        return 'Created';
      }
      const s = await ok(
        api().POST('/v1/admin/season-schedules', { body: { ...rules, cron: text(d, 'cron') ?? '', timeZone: text(d, 'timeZone') ?? '' } }),
      );
      onCreated();
      return `Schedule "${s.name}" created; the next season opens ${when(s.nextStartsAt)}`;
    },
    [...SEASON_FIELDS, ...rewardFields],
  );
  const err = f.errors.fields;
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <details className="panel">
      <summary>New season</summary>
      <form onSubmit={f.onSubmit} aria-label="new season">
        <div className="row">
          <Field label="Kind" name="mode">
            <select name="mode" value={mode} onChange={(e) => setMode(e.target.value as 'window' | 'recurring')}>
              <option value="recurring">Recurring (a schedule)</option>
              <option value="window">One window</option>
            </select>
          </Field>
          <Field label="Name" name="name" error={err.name} hint={mode === 'recurring' ? 'Each season is named "<name> #n"' : undefined}>
            <input name="name" />
          </Field>
          <Field label="Ranked resource" name="resourceTypeId" error={err.resourceTypeId}>
            <select name="resourceTypeId">
              {types.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({t.slug})
                </option>
              ))}
            </select>
          </Field>
        </div>
        {mode === 'window' ? (
          <div className="row">
            <Field label="Starts" name="startsAt" error={err.startsAt} hint="Empty: now. Earnings count from the start, never before.">
              <input name="startsAt" type="datetime-local" />
            </Field>
            <Field label="Ends" name="endsAt" error={err.endsAt}>
              <input name="endsAt" type="datetime-local" />
            </Field>
          </div>
        ) : (
          <div className="row">
            <Field
              label="Cron"
              name="cron"
              error={err.cron}
              hint="Each occurrence ends a season and opens the next, e.g. 0 0 * * 1 (Mondays 00:00)"
            >
              <input name="cron" defaultValue="0 0 * * 1" />
            </Field>
            <Field label="Time zone" name="timeZone" error={err.timeZone} hint="IANA name, e.g. Europe/Berlin">
              <input name="timeZone" defaultValue={browserZone} />
            </Field>
          </div>
        )}
        <Field label="Only these ledger reasons" name="reasons" error={err.reasons} hint="Comma-separated; empty: every earning counts">
          <input name="reasons" />
        </Field>
        <h3>Rank rewards</h3>
        {rows.map((r, i) => {
          const p = `rewards.${i}.`;
          return (
            <div className="row reward" key={r.key} aria-label={`reward ${i + 1}`} role="group">
              <Field label="Range" name={`${p}range`}>
                <select
                  value={r.range}
                  onChange={(e) => setRows(rows.map((x) => (x.key === r.key ? { ...x, range: e.target.value as RewardRow['range'] } : x)))}
                >
                  <option value="ranks">Final places</option>
                  <option value="percent">Top percent</option>
                </select>
              </Field>
              {r.range === 'ranks' ? (
                <>
                  <Field label="From rank" name={`${p}fromRank`} error={err[`${p}fromRank`]}>
                    <input name={`${p}fromRank`} type="number" min={1} />
                  </Field>
                  <Field label="To rank" name={`${p}toRank`} error={err[`${p}toRank`]}>
                    <input name={`${p}toRank`} type="number" min={1} />
                  </Field>
                </>
              ) : (
                <Field label="Top %" name={`${p}topPercent`} error={err[`${p}topPercent`]}>
                  <input name={`${p}topPercent`} type="number" min={0.01} max={100} step={0.01} />
                </Field>
              )}
              <Field label="Reward" name={`${p}type`} error={err[`${p}type`]}>
                <select name={`${p}type`} defaultValue="resource">
                  <option value="resource">resource</option>
                  <option value="item">item</option>
                  <option value="prize">prize</option>
                </select>
              </Field>
              <Field label="Resource, item or prize id" name={`${p}refId`} error={err[`${p}refId`]}>
                <input name={`${p}refId`} list="season-resource-ids" />
              </Field>
              <Field label="Amount" name={`${p}amount`} error={err[`${p}amount`]}>
                <input name={`${p}amount`} type="number" min={1} placeholder="1" />
              </Field>
              <button type="button" className="link" onClick={() => setRows(rows.filter((x) => x.key !== r.key))}>
                remove
              </button>
            </div>
          );
        })}
        <datalist id="season-resource-ids">
          {types.data?.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} ({t.slug})
            </option>
          ))}
        </datalist>
        <p>
          <button
            type="button"
            className="link"
            onClick={() => {
              setRows([...rows, { key: nextKey, range: 'ranks' }]);
              setNextKey(nextKey + 1);
            }}
          >
            + Add a reward
          </button>
        </p>
        {err.rewards ? (
          <p className="field-error" role="alert">
            {err.rewards}
          </p>
        ) : null}
        <FormFooter {...f} label={mode === 'window' ? 'Create season' : 'Create schedule'} />
      </form>
    </details>
  );
}

/**
 * What a season's rewards name: its community's resource types by name, prizes fetched one by one
 * (a season rewards a handful); items have no management read by id and keep their id.
 */
function useRewardNames(season: Schemas['AdminSeasonDto']) {
  const types = useResourceTypes(season.communityId);
  const prizes = useLoad(async () => {
    const ids = [...new Set(season.rewards.filter((r) => r.type === 'prize').map((r) => r.refId))];
    const found = await Promise.all(
      ids.map((prizeId) =>
        ok(api().GET('/v1/admin/prizes/{prizeId}', { params: { path: { prizeId } } })).then(
          (p) => [prizeId, p.name] as const,
          () => [prizeId, prizeId.slice(0, 8)] as const,
        ),
      ),
    );
    return new Map(found);
  }, [season.id]);
  return (type: string, refId: string): string =>
    (type === 'resource' ? types.data?.find((t) => t.id === refId)?.slug : type === 'prize' ? prizes.data?.get(refId) : undefined) ??
    refId.slice(0, 8);
}

/** One season: its window and rules, how far closing went, its standings (final once frozen) and payouts. */
export function Season() {
  const { seasonId = '' } = useParams();
  const s = useLoad(() => ok(api().GET('/v1/admin/seasons/{seasonId}', { params: { path: { seasonId } } })), [seasonId]);
  if (!s.data) return <Loading loading={s.loading} error={s.error} />;
  return <SeasonDetails season={s.data} />;
}

function SeasonDetails({ season }: { season: Schemas['AdminSeasonDto'] }) {
  const nameOf = useRewardNames(season);
  return (
    <section>
      <p className="crumbs">
        <Link to="/seasons">Seasons</Link> /
      </p>
      <h1>
        {season.name} <SeasonBadge status={season.status} />
      </h1>
      <p className="muted">
        <code>{season.resourceSlug}</code> earned from {when(season.startsAt)} until {when(season.endsAt)}
        {season.reasons ? ` · only ${season.reasons.join(', ')}` : ''}
      </p>
      <dl className="facts" aria-label="closing">
        <dt>Final standings frozen</dt>
        <dd>{when(season.frozenAt)}</dd>
        <dt>Players ranked</dt>
        <dd>{season.ranked ?? '—'}</dd>
        <dt>Paid through place</dt>
        <dd>{season.paidThrough}</dd>
        <dt>Rewards paid</dt>
        <dd>{season.rewardsPaid}</dd>
        <dt>Rewards refused</dt>
        <dd className={season.rewardsFailed > 0 ? 'neg' : undefined}>{season.rewardsFailed}</dd>
        <dt>Closed</dt>
        <dd>{when(season.closedAt)}</dd>
      </dl>
      <h2>Rank rewards</h2>
      {season.rewards.length === 0 ? <Empty>No rewards.</Empty> : null}
      <table aria-label="rank rewards">
        <tbody>
          {season.rewards.map((r, i) => (
            <tr key={i}>
              <td>{rewardRange(r)}</td>
              <td className="num">{r.amount}</td>
              <td>{r.type}</td>
              <td>
                {nameOf(r.type, r.refId)} <code className="muted">{r.refId}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Standings season={season} />
      {season.status === 'closed' || season.status === 'closing' ? <Payouts season={season} nameOf={nameOf} /> : null}
    </section>
  );
}

function Standings({ season }: { season: Schemas['AdminSeasonDto'] }) {
  const board = usePaged(
    (page) =>
      ok(
        api().GET('/v1/admin/resources/leaderboard', {
          params: { query: { communityId: season.communityId, resourceType: season.resourceTypeId, season: season.id, page, limit: 20 } },
        }),
      ),
    [season.id],
  );
  const final = season.frozenAt !== null;
  return (
    <div>
      <h2>{final ? 'Final standings' : season.status === 'upcoming' ? 'Standings (not started)' : 'Standings so far'}</h2>
      <Loading loading={board.loading && !board.data} error={board.error} />
      {board.data && board.data.items.length === 0 ? <Empty>Nobody ranked.</Empty> : null}
      <table aria-label="standings">
        <thead>
          <tr>
            <th className="num">{final ? 'Place' : 'Rank'}</th>
            <th>Player</th>
            <th className="num">Earned in the season</th>
          </tr>
        </thead>
        <tbody>
          {board.data?.items.map((e) => (
            <tr key={e.userId}>
              <td className="num">{e.rank}</td>
              <td>
                <Link to={`/players/${e.userId}`}>{e.handle}</Link> <span className="muted">{e.displayName}</span>
              </td>
              <td className="num">{e.amount.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={board.data} page={board.page} setPage={board.setPage} />
    </div>
  );
}

/** The players of a page of payouts, by id: at most one page's worth of reads. */
function useHandles(userIds: readonly string[]) {
  return useLoad(async () => {
    const found = await Promise.all(
      [...new Set(userIds)].map((user) =>
        ok(api().GET('/v1/admin/users/{user}', { params: { path: { user } } })).then(
          (u) => [user, u.handle] as const,
          () => [user, user.slice(0, 8)] as const,
        ),
      ),
    );
    return new Map(found);
  }, [userIds.join()]);
}

function Payouts({ season, nameOf }: { season: Schemas['AdminSeasonDto']; nameOf: (type: string, refId: string) => string }) {
  const list = usePaged(
    (page) =>
      ok(api().GET('/v1/admin/seasons/{seasonId}/payouts', { params: { path: { seasonId: season.id }, query: { page, limit: 20 } } })),
    [season.id],
  );
  const handles = useHandles(list.data?.items.map((p) => p.userId) ?? []);
  return (
    <div>
      <h2>Payouts</h2>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No reward paid (yet).</Empty> : null}
      <table aria-label="payouts">
        <thead>
          <tr>
            <th className="num">Place</th>
            <th>Player</th>
            <th>Reward</th>
            <th>Status</th>
            <th>When</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((p) => (
            <tr key={`${p.userId}-${p.reward}`}>
              <td className="num">{p.position}</td>
              <td>
                <Link to={`/players/${p.userId}`}>{handles.data?.get(p.userId) ?? p.userId.slice(0, 8)}</Link>
              </td>
              <td>
                {p.amount} × {nameOf(p.type, p.refId)} <span className="muted small">({p.type})</span>
              </td>
              <td>
                <span className={`badge payout-${p.status}`}>{statusWord(p.status)}</span>{' '}
                {p.error ? <span className="neg small">{p.error}</span> : null}
              </td>
              <td>{when(p.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </div>
  );
}
