import { useState } from 'react';
import { Link, NavLink, Route, Routes, useParams } from 'react-router';
import { api, idempotencyKey, ok, type Schemas } from '../api.ts';
import { BarChart } from '../chart.tsx';
import { Empty, Field, FormFooter, Loading, num, Pager, raw, text, useLoad, usePaged, useSubmit, when } from '../ui.tsx';

type CommunityDto = Schemas['CommunityDto'];

/** One community: settings, members, resource types, XP (grant/deduct) and the leaderboard. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function Community() {
  const { communityId = '' } = useParams();
  const c = useLoad(() => ok(api().GET('/v1/admin/communities/{communityId}', { params: { path: { communityId } } })), [communityId]);
  const base = `/communities/${communityId}`;
  return (
    <section>
      <p className="crumbs">
        <Link to="/communities">Communities</Link> /
      </p>
      <h1>{c.data?.name ?? communityId}</h1>
      <Loading loading={c.loading && !c.data} error={c.error} />
      <nav className="tabs">
        <NavLink to={base} end>
          Leaderboard
        </NavLink>
        <NavLink to={`${base}/activity`}>XP per day</NavLink>
        <NavLink to={`${base}/members`}>Members</NavLink>
        <NavLink to={`${base}/xp`}>Grant or deduct</NavLink>
        <NavLink to={`${base}/resources`}>Resource types</NavLink>
        <NavLink to={`${base}/settings`}>Settings</NavLink>
      </nav>
      {c.data ? (
        <Routes>
          <Route index element={<Leaderboard community={c.data} />} />
          <Route path="activity" element={<Activity community={c.data} />} />
          <Route path="members" element={<Members community={c.data} />} />
          <Route path="xp" element={<GrantXp community={c.data} onDone={() => undefined} />} />
          <Route path="resources" element={<ResourceTypes community={c.data} />} />
          <Route path="settings" element={<Settings community={c.data} onSaved={c.reload} />} />
        </Routes>
      ) : null}
    </section>
  );
}

/** The community's resource types (all pages: a community has a handful). */
export function useResourceTypes(communityId: string) {
  return useLoad(async () => {
    const all: Schemas['ResourceTypeDto'][] = [];
    for (let page = 1; ; page++) {
      const p = await ok(api().GET('/v1/admin/resources/types', { params: { query: { communityId, page, limit: 100 } } }));
      all.push(...p.items);
      if (!p.hasNextPage) return all;
    }
  }, [communityId]);
}

function Leaderboard({ community }: { community: CommunityDto }) {
  const types = useResourceTypes(community.id);
  const [slug, setSlug] = useState<string | null>(null);
  const chosen = slug ?? types.data?.find((t) => t.slug === 'xp')?.slug ?? types.data?.[0]?.slug ?? null;
  const board = usePaged(
    (page) =>
      chosen
        ? ok(
            api().GET('/v1/admin/resources/leaderboard', {
              params: { query: { communityId: community.id, resourceType: chosen, page, limit: 20 } },
            }),
          )
        : Promise.resolve({ items: [], page: 1, limit: 20, total: 0, hasNextPage: false }),
    [community.id, chosen],
  );
  const [player, setPlayer] = useState<string | null>(null);
  return (
    <div>
      <div className="toolbar">
        <label>
          Resource{' '}
          <select value={chosen ?? ''} onChange={(e) => setSlug(e.target.value)} aria-label="resource type">
            {types.data?.map((t) => (
              <option key={t.id} value={t.slug}>
                {t.name} ({t.slug})
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={board.reload}>
          Refresh
        </button>
      </div>
      <Loading loading={board.loading && !board.data} error={board.error} />
      {board.data && board.data.items.length === 0 ? <Empty>Nobody has earned any yet.</Empty> : null}
      <table className="leaderboard">
        <thead>
          <tr>
            <th className="num">Rank</th>
            <th>Player</th>
            <th className="num">Earned</th>
            <th />
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
              <td>
                <button type="button" className="link" onClick={() => setPlayer(e.userId)}>
                  ranking
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={board.data} page={board.page} setPage={board.setPage} />
      {player && chosen ? <Ranking communityId={community.id} resourceType={chosen} userId={player} /> : null}
    </div>
  );
}

/** What the community earned per UTC day (XP by default), as bars: a glance says whether last week's event drew players. */
function Activity({ community }: { community: CommunityDto }) {
  const types = useResourceTypes(community.id);
  const [slug, setSlug] = useState<string | null>(null);
  const [days, setDays] = useState(30);
  const chosen = slug ?? types.data?.find((t) => t.slug === 'xp')?.slug ?? types.data?.[0]?.slug ?? null;
  const r = useLoad(
    () =>
      chosen
        ? ok(
            api().GET('/v1/admin/resources/earned-per-day', {
              params: { query: { communityId: community.id, resourceType: chosen, days } },
            }),
          )
        : Promise.resolve(null),
    [community.id, chosen, days],
  );
  const total = r.data?.days.reduce((n, d) => n + d.earned, 0) ?? 0;
  return (
    <div>
      <div className="toolbar">
        <label>
          Resource{' '}
          <select value={chosen ?? ''} onChange={(e) => setSlug(e.target.value)} aria-label="resource type">
            {types.data?.map((t) => (
              <option key={t.id} value={t.slug}>
                {t.name} ({t.slug})
              </option>
            ))}
          </select>
        </label>
        <label>
          Days{' '}
          <select value={days} onChange={(e) => setDays(Number(e.target.value))} aria-label="days">
            {[7, 14, 30, 90].map((n) => (
              <option key={n} value={n}>
                last {n}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={r.reload}>
          Refresh
        </button>
      </div>
      <Loading loading={r.loading && !r.data} error={r.error} />
      {r.data ? (
        <div className="panel">
          <h3>
            {total.toLocaleString()} <code>{r.data.slug}</code> earned in the last {r.data.days.length} days (UTC)
          </h3>
          <BarChart
            label={`${r.data.slug} earned per day`}
            bars={r.data.days.map((d) => ({
              label: d.day.slice(5),
              value: d.earned,
              title: `${d.day}: ${d.earned.toLocaleString()} earned by ${d.players} player${d.players === 1 ? '' : 's'}`,
            }))}
          />
          <details>
            <summary className="small">As a table</summary>
            <table aria-label="earned per day">
              <thead>
                <tr>
                  <th>Day</th>
                  <th className="num">Earned</th>
                  <th className="num">Players</th>
                </tr>
              </thead>
              <tbody>
                {r.data.days
                  .filter((d) => d.earned > 0)
                  .map((d) => (
                    <tr key={d.day}>
                      <td>{d.day}</td>
                      <td className="num">{d.earned.toLocaleString()}</td>
                      <td className="num">{d.players}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </details>
        </div>
      ) : null}
    </div>
  );
}

function Ranking({ communityId, resourceType, userId }: { communityId: string; resourceType: string; userId: string }) {
  const r = useLoad(
    () => ok(api().GET('/v1/admin/resources/ranking', { params: { query: { communityId, resourceType, userId, neighbours: 2 } } })),
    [communityId, resourceType, userId],
  );
  if (!r.data) return <Loading loading={r.loading} error={r.error} />;
  const rows = [
    ...r.data.above,
    { rank: r.data.rank, userId, handle: '→ this player', displayName: null, amount: r.data.amount },
    ...r.data.below,
  ];
  return (
    <div className="panel">
      <h3>
        Ranking: rank {r.data.rank ?? '—'} of {r.data.totalRanked}, earned {r.data.amount}, balance {r.data.balance}
      </h3>
      <table>
        <tbody>
          {rows.map((e) => (
            <tr key={e.userId} className={e.userId === userId ? 'me' : undefined}>
              <td className="num">{e.rank ?? '—'}</td>
              <td>{e.handle}</td>
              <td className="num">{e.amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Members({ community }: { community: CommunityDto }) {
  const [query, setQuery] = useState('');
  const list = usePaged(
    (page) =>
      ok(
        api().GET('/v1/admin/communities/{communityId}/members', {
          params: { path: { communityId: community.id }, query: { query: query || undefined, page, limit: 20 } },
        }),
      ),
    [community.id, query],
  );
  return (
    <div>
      <div className="toolbar">
        <input
          type="search"
          placeholder="Search handle or name"
          aria-label="search members"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No member matches.</Empty> : null}
      <table>
        <thead>
          <tr>
            <th>Handle</th>
            <th>Name</th>
            <th>Joined</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((m) => (
            <tr key={m.userId}>
              <td>
                <Link to={`/players/${m.userId}`}>{m.handle}</Link>
              </td>
              <td>{m.displayName}</td>
              <td>{when(m.joinedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </div>
  );
}

/**
 * Grant or deduct through the ledger. The idempotency key is made when the form is shown and kept
 * until the operation succeeds, so a double click or a retry after a lost answer counts once.
 */
export function GrantXp({ community, userId, onDone }: { community: CommunityDto; userId?: string; onDone: () => void }) {
  const types = useResourceTypes(community.id);
  const [key, setKey] = useState(() => idempotencyKey('ledger'));
  const f = useSubmit(
    async (d) => {
      const player = text(d, 'userId') ?? '';
      // A handle is looked up (the management API takes ids); an unknown one is the API's 404 here.
      const userId =
        player === '' || UUID.test(player)
          ? player
          : (await ok(api().GET('/v1/admin/users/{user}', { params: { path: { user: player } } }))).userId;
      const body = {
        userId,
        resourceTypeId: text(d, 'resourceTypeId') ?? '',
        amount: num(d, 'amount') as number,
        reason: text(d, 'reason') ?? '',
        reference: text(d, 'reference'),
        idempotencyKey: key,
      };
      const r =
        d.get('direction') === 'deduct'
          ? await ok(api().POST('/v1/admin/resources/deductions', { body: { ...body, lowerEarned: d.get('lowerEarned') === 'on' } }))
          : await ok(api().POST('/v1/admin/resources/grants', { body }));
      setKey(idempotencyKey('ledger'));
      onDone();
      return `${r.replayed ? 'Already applied' : 'Done'}: balance ${r.balance}, earned ${r.earned}`;
    },
    ['userId', 'resourceTypeId', 'amount', 'reason', 'reference'],
    { reset: true },
  );
  return (
    <form className="panel" onSubmit={f.onSubmit} aria-label="grant or deduct">
      <div className="row">
        <Field label="Player" name="userId" error={f.errors.fields.userId} hint="Handle or user id (see Members).">
          <input name="userId" defaultValue={userId} />
        </Field>
        <Field label="Resource" name="resourceTypeId" error={f.errors.fields.resourceTypeId}>
          <select name="resourceTypeId">
            {types.data?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.slug})
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="row">
        <Field label="Operation" name="direction">
          <select name="direction">
            <option value="grant">Grant</option>
            <option value="deduct">Deduct</option>
          </select>
        </Field>
        <Field label="Amount" name="amount" error={f.errors.fields.amount}>
          <input name="amount" type="number" min={1} step={1} />
        </Field>
        <Field label="Lower the rank too" name="lowerEarned" hint="Deductions only">
          <input name="lowerEarned" type="checkbox" />
        </Field>
      </div>
      <div className="row">
        <Field label="Reason" name="reason" error={f.errors.fields.reason} hint="Kept in the ledger, e.g. tournament_prize">
          <input name="reason" />
        </Field>
        <Field label="Reference" name="reference" error={f.errors.fields.reference}>
          <input name="reference" />
        </Field>
      </div>
      <p className="muted small">Idempotency key: {key}</p>
      <FormFooter {...f} label="Apply" />
    </form>
  );
}

function ResourceTypes({ community }: { community: CommunityDto }) {
  const list = usePaged(
    (page) => ok(api().GET('/v1/admin/resources/types', { params: { query: { communityId: community.id, page, limit: 20 } } })),
    [community.id],
  );
  const f = useSubmit(
    async (d) => {
      await ok(
        api().POST('/v1/admin/resources/types', {
          body: {
            communityId: community.id,
            slug: text(d, 'slug') ?? '',
            name: text(d, 'name') ?? '',
            kind: (text(d, 'kind') ?? 'global') as 'global' | 'scoped',
            description: text(d, 'description'),
          },
        }),
      );
      list.reload();
      return 'Created';
    },
    ['slug', 'name', 'kind', 'description'],
    { reset: true },
  );
  return (
    <div>
      <table>
        <thead>
          <tr>
            <th>Name</th>
            <th>Slug</th>
            <th>Kind</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>
                <code>{t.slug}</code>
              </td>
              <td>{t.kind}</td>
              <td>{when(t.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
      <details className="panel">
        <summary>New resource type</summary>
        <form onSubmit={f.onSubmit}>
          <div className="row">
            <Field label="Name" name="name" error={f.errors.fields.name}>
              <input name="name" />
            </Field>
            <Field label="Slug" name="slug" error={f.errors.fields.slug}>
              <input name="slug" />
            </Field>
            <Field label="Kind" name="kind" error={f.errors.fields.kind} hint="scoped: an event's score">
              <select name="kind">
                <option value="global">global</option>
                <option value="scoped">scoped</option>
              </select>
            </Field>
          </div>
          <Field label="Description" name="description" error={f.errors.fields.description}>
            <input name="description" />
          </Field>
          <FormFooter {...f} label="Create" />
        </form>
      </details>
    </div>
  );
}

function Settings({ community, onSaved }: { community: CommunityDto; onSaved: () => void }) {
  const f = useSubmit(
    async (d) => {
      await ok(
        api().PATCH('/v1/admin/communities/{communityId}', {
          params: { path: { communityId: community.id } },
          body: {
            name: text(d, 'name'),
            description: raw(d, 'description'),
            imageUrl: text(d, 'imageUrl'),
            bannerUrl: text(d, 'bannerUrl'),
          },
        }),
      );
      onSaved();
      return 'Saved';
    },
    ['name', 'description', 'imageUrl', 'bannerUrl'],
  );
  return (
    <form className="panel" onSubmit={f.onSubmit}>
      <p className="muted">
        Slug <code>{community.slug}</code> · {community.memberCount} members · created {when(community.createdAt)}
      </p>
      <Field label="Name" name="name" error={f.errors.fields.name}>
        <input name="name" defaultValue={community.name} />
      </Field>
      <Field label="Description" name="description" error={f.errors.fields.description}>
        <textarea name="description" rows={3} defaultValue={community.description ?? ''} />
      </Field>
      <div className="row">
        <Field label="Image URL" name="imageUrl" error={f.errors.fields.imageUrl}>
          <input name="imageUrl" defaultValue={community.imageUrl ?? ''} />
        </Field>
        <Field label="Banner URL" name="bannerUrl" error={f.errors.fields.bannerUrl}>
          <input name="bannerUrl" defaultValue={community.bannerUrl ?? ''} />
        </Field>
      </div>
      <FormFooter {...f} label="Save" />
    </form>
  );
}
