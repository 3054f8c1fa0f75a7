import { useState } from 'react';
import { Link, NavLink, Route, Routes, useNavigate, useParams } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { Empty, Loading, Pager, raw, useLoad, usePaged, statusWord, when } from '../ui.tsx';
import { GrantXp } from './Community.tsx';
import { useCommunities } from './Events.tsx';

/** Find a player: a member of a community, by handle or name. */
export function Players() {
  const communities = useCommunities();
  const [communityId, setCommunityId] = useState('');
  const [query, setQuery] = useState('');
  const navigate = useNavigate();
  const chosen = communityId || communities.data?.[0]?.id || '';
  const list = usePaged(
    (page) =>
      chosen
        ? ok(
            api().GET('/v1/admin/communities/{communityId}/members', {
              params: { path: { communityId: chosen }, query: { query: query || undefined, page, limit: 20 } },
            }),
          )
        : Promise.resolve({ items: [], page: 1, limit: 20, total: 0, hasNextPage: false }),
    [chosen, query],
  );
  return (
    <section>
      <h1>Players</h1>
      <div className="toolbar">
        <select value={chosen} onChange={(e) => setCommunityId(e.target.value)} aria-label="community">
          {communities.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <input
          type="search"
          placeholder="Handle or name"
          aria-label="search players"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const id = raw(new FormData(e.currentTarget), 'userId').trim();
            if (id) void navigate(`/players/${id}`);
          }}
        >
          <input name="userId" placeholder="or a user id or handle" aria-label="user id or handle" />
        </form>
      </div>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No member matches.</Empty> : null}
      <table>
        <tbody>
          {list.data?.items.map((m) => (
            <tr key={m.userId}>
              <td>
                <Link to={`/players/${m.userId}`}>{m.handle}</Link>
              </td>
              <td>{m.displayName}</td>
              <td>joined {when(m.joinedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </section>
  );
}

/**
 * Support's screen: who the player is (`/players/<id or handle>`), then in tabs their balances and
 * ledger, purchases, inventory, event participations, notifications, linked socials and wallets.
 */
export function Player() {
  const { userId: ref = '' } = useParams();
  const user = useLoad(() => ok(api().GET('/v1/admin/users/{user}', { params: { path: { user: ref } } })), [ref]);
  if (!user.data) return <Loading loading={user.loading} error={user.error} />;
  return <PlayerDetails user={user.data} base={`/players/${encodeURIComponent(ref)}`} />;
}

function PlayerDetails({ user, base }: { user: Schemas['AdminUserDto']; base: string }) {
  const { userId } = user;
  return (
    <section>
      <p className="crumbs">
        <Link to="/players">Players</Link> /
      </p>
      <h1>
        {user.handle} {user.displayName ? <span className="muted">{user.displayName}</span> : null}
      </h1>
      <p className="muted">
        User id <code>{userId}</code>
        {user.username ? ` · username ${user.username}` : ''} · since {when(user.createdAt)}
      </p>
      <nav className="tabs" aria-label="player">
        <NavLink to={base} end>
          Balances and ledger
        </NavLink>
        <NavLink to={`${base}/purchases`}>Purchases</NavLink>
        <NavLink to={`${base}/inventory`}>Inventory</NavLink>
        <NavLink to={`${base}/events`}>Events</NavLink>
        <NavLink to={`${base}/notifications`}>Notifications</NavLink>
        <NavLink to={`${base}/accounts`}>Socials and wallets</NavLink>
      </nav>
      <Routes>
        <Route index element={<Ledger userId={userId} />} />
        <Route path="purchases" element={<Purchases userId={userId} />} />
        <Route path="inventory" element={<Inventory userId={userId} />} />
        <Route path="events" element={<Participations userId={userId} />} />
        <Route path="notifications" element={<Notifications userId={userId} />} />
        <Route path="accounts" element={<Accounts userId={userId} />} />
      </Routes>
    </section>
  );
}

/** Balances, the ledger with its reasons, and a grant or deduction. */
function Ledger({ userId }: { userId: string }) {
  const [tick, setTick] = useState(0);
  const balances = useLoad(() => ok(api().GET('/v1/admin/resources/balances', { params: { query: { userId } } })), [userId, tick]);
  const ledger = usePaged(
    (page) => ok(api().GET('/v1/admin/resources/ledger', { params: { query: { userId, page, limit: 20 } } })),
    [userId, tick],
  );
  const communities = useCommunities();
  const slugs = new Map(balances.data?.map((b) => [b.resourceTypeId, b.slug]));
  const community = communities.data?.[0];
  return (
    <>
      <h2>Balances</h2>
      <Loading loading={balances.loading && !balances.data} error={balances.error} />
      {balances.data && balances.data.length === 0 ? <Empty>No balances.</Empty> : null}
      <table aria-label="balances">
        <thead>
          <tr>
            <th>Resource</th>
            <th className="num">Balance</th>
            <th className="num">Earned</th>
          </tr>
        </thead>
        <tbody>
          {balances.data?.map((b) => (
            <tr key={b.resourceTypeId}>
              <td>
                <code>{b.slug}</code>
              </td>
              <td className="num">{b.balance}</td>
              <td className="num">{b.earned}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Ledger</h2>
      <Loading loading={ledger.loading && !ledger.data} error={ledger.error} />
      {ledger.data && ledger.data.items.length === 0 ? <Empty>No ledger entries.</Empty> : null}
      <table aria-label="ledger">
        <thead>
          <tr>
            <th>When</th>
            <th>Resource</th>
            <th className="num">Δ balance</th>
            <th className="num">Δ earned</th>
            <th>Reason</th>
            <th>Reference</th>
          </tr>
        </thead>
        <tbody>
          {ledger.data?.items.map((e) => (
            <tr key={e.id}>
              <td>{when(e.createdAt)}</td>
              <td>
                <code>{slugs.get(e.resourceTypeId) ?? e.resourceTypeId.slice(0, 8)}</code>
              </td>
              <td className={e.delta < 0 ? 'num neg' : 'num'}>{e.delta > 0 ? `+${e.delta}` : e.delta}</td>
              <td className="num">{e.earnedDelta}</td>
              <td>{e.reason}</td>
              <td>{e.reference}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={ledger.data} page={ledger.page} setPage={ledger.setPage} />
      {community ? (
        <details className="panel">
          <summary>Grant or deduct ({community.name})</summary>
          <GrantXp community={community} userId={userId} onDone={() => setTick((t) => t + 1)} />
        </details>
      ) : null}
    </>
  );
}

function Purchases({ userId }: { userId: string }) {
  const purchases = usePaged(
    (page) => ok(api().GET('/v1/admin/store/purchases', { params: { query: { userId, page, limit: 20 } } })),
    [userId],
  );
  return (
    <>
      <Loading loading={purchases.loading && !purchases.data} error={purchases.error} />
      {purchases.data && purchases.data.items.length === 0 ? <Empty>No purchases.</Empty> : null}
      <table aria-label="player purchases">
        <tbody>
          {purchases.data?.items.map((p) => (
            <tr key={p.id}>
              <td>{when(p.createdAt)}</td>
              <td>{p.listingName}</td>
              <td className="num">× {p.quantity}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={purchases.data} page={purchases.page} setPage={purchases.setPage} />
    </>
  );
}

/** What the player holds, in every community. */
function Inventory({ userId }: { userId: string }) {
  const items = usePaged(
    (page) => ok(api().GET('/v1/admin/users/{userId}/inventory', { params: { path: { userId }, query: { page, limit: 20 } } })),
    [userId],
  );
  return (
    <>
      <Loading loading={items.loading && !items.data} error={items.error} />
      {items.data && items.data.items.length === 0 ? <Empty>The player holds no item.</Empty> : null}
      <table aria-label="inventory">
        <thead>
          <tr>
            <th>Community</th>
            <th>Slot</th>
            <th>Item</th>
            <th>Rarity</th>
            <th className="num">Quantity</th>
            <th>On the avatar</th>
            <th>Received</th>
          </tr>
        </thead>
        <tbody>
          {items.data?.items.map((i) => (
            <tr key={`${i.communityId}:${i.itemId}`}>
              <td>
                <Link to={`/communities/${i.communitySlug}`}>{i.communitySlug}</Link>
              </td>
              <td>
                <code>{i.slotKey}</code>
              </td>
              <td>{i.name}</td>
              <td>{i.rarity}</td>
              <td className="num">{i.quantity}</td>
              <td>{i.allocated ? `yes${i.avatarMintStatus ? ` · mint ${i.avatarMintStatus}` : ''}` : 'no'}</td>
              <td>{when(i.acquiredAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={items.data} page={items.page} setPage={items.setPage} />
    </>
  );
}

/** The events the player registered for, in any ParticipantStatus. */
function Participations({ userId }: { userId: string }) {
  const list = usePaged(
    (page) => ok(api().GET('/v1/admin/users/{userId}/participations', { params: { path: { userId }, query: { page, limit: 20 } } })),
    [userId],
  );
  return (
    <>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>The player never registered for an event.</Empty> : null}
      <table aria-label="participations">
        <thead>
          <tr>
            <th>Event</th>
            <th>Event status</th>
            <th>Participant status</th>
            <th className="num">Score</th>
            <th>Registered</th>
            <th>Status since</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((p) => (
            <tr key={p.eventId}>
              <td>
                <Link to={`/events/${p.eventId}`}>{p.eventName}</Link>
              </td>
              <td>{p.eventStatus.replace('_', ' ')}</td>
              <td>
                {statusWord(p.statusName)}
                {p.dropReason ? <span className="muted"> ({p.dropReason})</span> : null}
              </td>
              <td className="num">{p.score}</td>
              <td>{when(p.registeredAt)}</td>
              <td>{when(p.statusChangedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </>
  );
}

/** Every notification of the player (reading them here marks nothing read). */
function Notifications({ userId }: { userId: string }) {
  const list = usePaged(
    (page) => ok(api().GET('/v1/admin/users/{userId}/notifications', { params: { path: { userId }, query: { page, limit: 20 } } })),
    [userId],
  );
  return (
    <>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data ? <p className="muted">{(list.data as Schemas['NotificationPageDto']).unreadCount} unread</p> : null}
      {list.data && list.data.items.length === 0 ? <Empty>No notifications.</Empty> : null}
      <table aria-label="notifications">
        <thead>
          <tr>
            <th>When</th>
            <th>Type</th>
            <th>Title</th>
            <th>Read</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((n) => (
            <tr key={n.id}>
              <td>{when(n.createdAt)}</td>
              <td>
                <code>{n.type}</code>
              </td>
              <td>{n.title}</td>
              <td>{n.read ? when(n.readAt) : 'unread'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </>
  );
}

/** Linked social accounts (the API never shows a token) and wallets. */
function Accounts({ userId }: { userId: string }) {
  const socials = useLoad(() => ok(api().GET('/v1/admin/users/{userId}/socials', { params: { path: { userId } } })), [userId]);
  const wallets = useLoad(() => ok(api().GET('/v1/admin/users/{userId}/wallets', { params: { path: { userId } } })), [userId]);
  return (
    <>
      <h2>Linked socials</h2>
      <Loading loading={socials.loading && !socials.data} error={socials.error} />
      {socials.data && socials.data.length === 0 ? <Empty>No linked social account.</Empty> : null}
      <table aria-label="socials">
        <thead>
          <tr>
            <th>Provider</th>
            <th>Handle</th>
            <th>Account id</th>
            <th>Public</th>
            <th>Linked</th>
          </tr>
        </thead>
        <tbody>
          {socials.data?.map((s) => (
            <tr key={s.id}>
              <td>{s.accountType}</td>
              <td>
                {s.handle ?? '—'}
                {s.server ? <span className="muted"> · {s.server}</span> : null}
              </td>
              <td>
                <code>{s.subjectId}</code>
              </td>
              <td>{s.public ? 'yes' : 'no'}</td>
              <td>{when(s.linkedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Wallets</h2>
      <Loading loading={wallets.loading && !wallets.data} error={wallets.error} />
      {wallets.data && wallets.data.length === 0 ? <Empty>No wallet.</Empty> : null}
      <table aria-label="wallets">
        <thead>
          <tr>
            <th>Address</th>
            <th>Chain</th>
            <th>Login</th>
            <th>Since</th>
          </tr>
        </thead>
        <tbody>
          {wallets.data?.map((w) => (
            <tr key={`${w.chain}:${w.address}`}>
              <td>
                <code>{w.address}</code>
              </td>
              <td>{w.chain}</td>
              <td>{w.provider}</td>
              <td>{when(w.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
