import { Link } from 'react-router';
import { api, ok } from '../api.ts';
import { Empty, Loading, TIME_ZONE, useLoad, when } from '../ui.tsx';
import { StatusBadge } from './lifecycle.tsx';

/** The operator's local midnight (the browser's time zone), as an instant. */
const todayStart = (): string => {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.toISOString();
};

/**
 * The first screen: today's activity of the tenant (since local midnight), the events running or
 * taking registrations now, and what waits for the operator (submissions to review).
 */
export function Overview() {
  const counts = useLoad(() => ok(api().GET('/v1/admin/overview', { params: { query: { since: todayStart() } } })), []);
  const live = useLoad(async () => {
    const [active, open] = await Promise.all([
      ok(api().GET('/v1/admin/quest-events', { params: { query: { status: 'active', page: 1, limit: 20 } } })),
      ok(api().GET('/v1/admin/quest-events', { params: { query: { status: 'registration_open', page: 1, limit: 20 } } })),
    ]);
    return [...active.items, ...open.items];
  }, []);
  const c = counts.data;
  const tiles: [string, number | undefined, string?][] = [
    ['Sessions started', c?.logins],
    ['New players', c?.newPlayers, '/players'],
    ['Grants', c?.grants, '/audit-log'],
    ['Purchases', c?.purchases, '/store'],
    ['Quest completions', c?.questCompletions, '/quests'],
    ['Submissions to review', c?.pendingReviews, '/reviews'],
  ];
  return (
    <section>
      <h1>Overview</h1>
      <p className="muted">
        Today, since midnight ({TIME_ZONE}){c ? ` · ${when(c.since)}` : ''}
      </p>
      <Loading loading={counts.loading && !c} error={counts.error} />
      <div className="tiles" aria-label="today">
        {tiles.map(([label, value, to]) => (
          <div key={label} className={label === 'Submissions to review' && value ? 'tile attention' : 'tile'}>
            <span className="tile-value">{value === undefined ? '…' : value.toLocaleString()}</span>
            {to ? <Link to={to}>{label}</Link> : <span>{label}</span>}
          </div>
        ))}
      </div>
      <div className="panel">
        <h2>Live events</h2>
        <Loading loading={live.loading && !live.data} error={live.error} />
        {live.data && live.data.length === 0 ? <Empty>No event is running or taking registrations.</Empty> : null}
        {live.data && live.data.length > 0 ? (
          <table aria-label="live events">
            <thead>
              <tr>
                <th>Event</th>
                <th>Status</th>
                <th className="num">Registered</th>
                <th>Ends</th>
              </tr>
            </thead>
            <tbody>
              {live.data.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link to={`/events/${e.id}`}>{e.name}</Link>
                  </td>
                  <td>
                    <StatusBadge status={e.status} />
                  </td>
                  <td className="num">
                    {e.registeredCount}
                    {e.capacity ? ` / ${e.capacity}` : ''}
                  </td>
                  <td>{when(e.endsAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </section>
  );
}
