import { useState } from 'react';
import { Link } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { BarChart } from '../chart.tsx';
import { formErrors } from '../errors.ts';
import { Empty, Loading, Pager, useLoad, usePaged, when } from '../ui.tsx';
import { useCommunities } from './Events.tsx';

/** A listing's name short enough for the chart's axis. */
const short = (name: string) => (name.length > 14 ? `${name.slice(0, 13)}…` : name);

/** A price in the resource types' slugs ("120 × gold + 5 × gems"); an id only until the names arrive. */
const price = (p: Schemas['PriceComponentDto'][], names: Map<string, string>) =>
  p.map((c) => `${c.amount} × ${names.get(c.resourceTypeId) ?? c.resourceTypeId.slice(0, 8)}`).join(' + ') || 'free';

/** The resource types' slugs and the items' names of every community of the tenant, by id. */
function useNames(communities: Schemas['CommunityDto'][] | undefined) {
  return useLoad(async () => {
    const names = new Map<string, string>();
    await Promise.all(
      (communities ?? []).map(async (c) => {
        const [types, items] = await Promise.all([
          ok(api().GET('/v1/admin/resources/types', { params: { query: { communityId: c.id, page: 1, limit: 100 } } })),
          ok(api().GET('/v1/admin/inventory/items', { params: { query: { communityId: c.id, page: 1, limit: 100 } } })),
        ]);
        for (const t of types.items) names.set(t.id, t.slug);
        for (const i of items.items) names.set(i.id, i.name);
      }),
    );
    return names;
  }, [communities]);
}

/** Listings with their requirements, stock and sales; requirements; purchases. */
export function Store() {
  const communities = useCommunities();
  const [containerId, setContainerId] = useState('');
  const [listingId, setListingId] = useState('');
  const listings = usePaged(
    (page) => ok(api().GET('/v1/admin/store/listings', { params: { query: { containerId: containerId || undefined, page, limit: 20 } } })),
    [containerId],
  );
  const requirements = usePaged((page) => ok(api().GET('/v1/admin/store/requirements', { params: { query: { page, limit: 20 } } })), []);
  const purchases = usePaged(
    (page) => ok(api().GET('/v1/admin/store/purchases', { params: { query: { listingId: listingId || undefined, page, limit: 20 } } })),
    [listingId],
  );
  const reqNames = new Map(requirements.data?.items.map((r) => [r.id, r.name]));
  const names = useNames(communities.data).data ?? new Map<string, string>();
  const [error, setError] = useState<string | null>(null);
  const toggle = async (l: Schemas['ListingDto']) => {
    try {
      await ok(api().PATCH('/v1/admin/store/listings/{listingId}', { params: { path: { listingId: l.id } }, body: { active: !l.active } }));
      setError(null);
      listings.reload();
    } catch (err) {
      setError(formErrors(err).form);
    }
  };
  return (
    <section>
      <h1>Store</h1>
      <div className="toolbar">
        <select value={containerId} onChange={(e) => setContainerId(e.target.value)} aria-label="community">
          <option value="">All communities</option>
          {communities.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <h2>Listings</h2>
      <Loading loading={listings.loading && !listings.data} error={listings.error} />
      {listings.data && listings.data.items.length > 0 ? (
        <div className="panel">
          <h3>Purchases per listing (this page)</h3>
          <BarChart
            label="purchases per listing"
            bars={listings.data.items.map((l) => ({
              label: short(l.name),
              value: l.sold,
              title: `${l.name}: ${l.sold.toLocaleString()} sold${l.totalSupply === null ? '' : ` of ${l.totalSupply.toLocaleString()}`}`,
            }))}
          />
        </div>
      ) : null}
      <table aria-label="listings">
        <thead>
          <tr>
            <th>Listing</th>
            <th>Kind</th>
            <th>Price</th>
            <th>Requirements</th>
            <th className="num">Stock</th>
            <th className="num">Sold</th>
            <th>Active</th>
          </tr>
        </thead>
        <tbody>
          {listings.data?.items.map((l) => (
            <tr key={l.id}>
              <td>
                <button type="button" className="link" onClick={() => setListingId(l.id)} title="Show its purchases">
                  {l.name}
                </button>
              </td>
              <td>{l.kind}</td>
              <td>{price(l.price, names)}</td>
              <td>{l.requirementIds.map((id) => reqNames.get(id) ?? id.slice(0, 8)).join(', ') || '—'}</td>
              <td className="num">{l.totalSupply === null ? '∞' : `${l.remainingSupply} / ${l.totalSupply}`}</td>
              <td className="num">{l.sold}</td>
              <td>
                <button type="button" className="link" onClick={() => void toggle(l)}>
                  {l.active ? 'active' : 'inactive'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={listings.data} page={listings.page} setPage={listings.setPage} />

      <h2>
        Purchases{' '}
        {listingId ? (
          <button type="button" className="link" onClick={() => setListingId('')}>
            (all listings)
          </button>
        ) : null}
      </h2>
      <Loading loading={purchases.loading && !purchases.data} error={purchases.error} />
      {purchases.data && purchases.data.items.length === 0 ? <Empty>No purchases.</Empty> : null}
      <table aria-label="purchases">
        <thead>
          <tr>
            <th>When</th>
            <th>Listing</th>
            <th>Player</th>
            <th className="num">Quantity</th>
            <th>Paid</th>
          </tr>
        </thead>
        <tbody>
          {purchases.data?.items.map((p) => (
            <tr key={p.id}>
              <td>{when(p.createdAt)}</td>
              <td>{p.listingName}</td>
              <td>
                <Link to={`/players/${p.userId}`} title={p.userId}>
                  {p.handle ?? p.userId.slice(0, 8)}
                </Link>
              </td>
              <td className="num">{p.quantity}</td>
              <td>{price(p.price, names)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={purchases.data} page={purchases.page} setPage={purchases.setPage} />

      <h2>Requirements</h2>
      <table aria-label="requirements">
        <thead>
          <tr>
            <th>Key</th>
            <th>Name</th>
            <th>Kind</th>
            <th>Rule</th>
          </tr>
        </thead>
        <tbody>
          {requirements.data?.items.map((r) => (
            <tr key={r.id}>
              <td>
                <code>{r.key}</code>
              </td>
              <td>{r.name}</td>
              <td>{r.kind}</td>
              <td>
                {r.kind === 'min_resource'
                  ? `≥ ${r.minAmount}`
                  : r.kind === 'owns_item'
                    ? `owns ${(r.itemId && names.get(r.itemId)) ?? r.itemId?.slice(0, 8)}`
                    : r.personalData
                      ? 'personal data'
                      : 'data'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={requirements.data} page={requirements.page} setPage={requirements.setPage} />
    </section>
  );
}
