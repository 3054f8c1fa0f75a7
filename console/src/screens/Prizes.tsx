import { useState } from 'react';
import { Link } from 'react-router';
import { api, idempotencyKey, ok, type Schemas } from '../api.ts';
import { Empty, Field, FormFooter, Loading, num, Pager, text, usePaged, useSubmit, when } from '../ui.tsx';

export function Prizes() {
  const list = usePaged((page) => ok(api().GET('/v1/admin/prizes', { params: { query: { page, limit: 20 } } })), []);
  const [prize, setPrize] = useState<Schemas['PrizeDto'] | null>(null);
  return (
    <section>
      <h1>Prizes</h1>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No prizes.</Empty> : null}
      <table>
        <thead>
          <tr>
            <th>Prize</th>
            <th>Kind</th>
            <th className="num">Awarded / supply</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((p) => (
            <tr key={p.id} className={prize?.id === p.id ? 'me' : undefined}>
              <td>
                <button type="button" className="link" onClick={() => setPrize(p)}>
                  {p.name}
                </button>
              </td>
              <td>{p.kind}</td>
              <td className="num">
                {p.awarded} / {p.totalSupply ?? '∞'}
              </td>
              <td>{when(p.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
      {prize ? <Owners key={prize.id} prize={prize} onAwarded={list.reload} /> : null}
    </section>
  );
}

function Owners({ prize, onAwarded }: { prize: Schemas['PrizeDto']; onAwarded: () => void }) {
  const owners = usePaged(
    (page) => ok(api().GET('/v1/admin/prizes/{prizeId}/owners', { params: { path: { prizeId: prize.id }, query: { page, limit: 20 } } })),
    [prize.id],
  );
  const [key, setKey] = useState(() => idempotencyKey('award'));
  const f = useSubmit(
    async (d) => {
      const r = await ok(
        api().POST('/v1/admin/prizes/{prizeId}/awards', {
          params: { path: { prizeId: prize.id } },
          body: { userId: text(d, 'userId') ?? '', reason: text(d, 'reason') ?? '', quantity: num(d, 'quantity'), idempotencyKey: key },
        }),
      );
      setKey(idempotencyKey('award'));
      owners.reload();
      onAwarded();
      return `${r.replayed ? 'Already awarded' : 'Awarded'}: they own ${r.ownedQuantity}`;
    },
    ['userId', 'reason', 'quantity'],
    { reset: true },
  );
  return (
    <div className="panel">
      <h2>Owners of {prize.name}</h2>
      {owners.data && owners.data.items.length === 0 ? <Empty>Nobody owns it yet.</Empty> : null}
      <table>
        <tbody>
          {owners.data?.items.map((o) => (
            <tr key={o.userId}>
              <td>
                <Link to={`/players/${o.userId}`}>{o.handle}</Link>
              </td>
              <td className="num">{o.quantity}</td>
              <td>{when(o.firstAwardedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={owners.data} page={owners.page} setPage={owners.setPage} />
      <form onSubmit={f.onSubmit}>
        <h3>Award</h3>
        <div className="row">
          <Field label="Player (user id)" name="userId" error={f.errors.fields.userId}>
            <input name="userId" />
          </Field>
          <Field label="Quantity" name="quantity" error={f.errors.fields.quantity}>
            <input name="quantity" type="number" defaultValue={1} />
          </Field>
          <Field label="Reason" name="reason" error={f.errors.fields.reason}>
            <input name="reason" />
          </Field>
        </div>
        <FormFooter {...f} label="Award prize" />
      </form>
    </div>
  );
}
