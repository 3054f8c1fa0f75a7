import { useState } from 'react';
import { api, ok } from '../api.ts';
import { Empty, Field, FormFooter, Loading, num, Pager, text, useLoad, usePaged, useSubmit } from '../ui.tsx';
import { useCommunities } from './Events.tsx';

const EMPTY_PAGE = { items: [], page: 1, limit: 20, total: 0, hasNextPage: false };

/** A community's inventory: its slots and its items with their supply and units granted. */
export function Inventory() {
  const communities = useCommunities();
  const [communityId, setCommunityId] = useState('');
  const [slotId, setSlotId] = useState('');
  const chosen = communityId || communities.data?.[0]?.id || '';
  const slots = useLoad(
    () => (chosen ? ok(api().GET('/v1/admin/inventory/slots', { params: { query: { communityId: chosen } } })) : Promise.resolve([])),
    [chosen],
  );
  const items = usePaged(
    (page) =>
      chosen
        ? ok(
            api().GET('/v1/admin/inventory/items', {
              params: { query: { communityId: chosen, slotId: slotId || undefined, page, limit: 20 } },
            }),
          )
        : Promise.resolve(EMPTY_PAGE),
    [chosen, slotId],
  );
  const newSlot = useSubmit(
    async (d) => {
      const s = await ok(
        api().POST('/v1/admin/inventory/slots', {
          body: { communityId: chosen, key: text(d, 'key') ?? '', name: text(d, 'name') ?? '', position: num(d, 'position') },
        }),
      );
      slots.reload();
      return `Slot ${s.key} created`;
    },
    ['key', 'name', 'position'],
    { reset: true },
  );
  const newItem = useSubmit(
    async (d) => {
      const i = await ok(
        api().POST('/v1/admin/inventory/items', {
          body: {
            communityId: chosen,
            slotId: text(d, 'slotId') ?? '',
            name: text(d, 'name') ?? '',
            rarity: text(d, 'rarity'),
            supply: num(d, 'supply'),
          },
        }),
      );
      items.reload();
      return `Item ${i.name} created`;
    },
    ['slotId', 'name', 'rarity', 'supply'],
    { reset: true },
  );
  return (
    <section>
      <h1>Inventory</h1>
      <div className="toolbar">
        <select
          value={chosen}
          onChange={(e) => {
            setCommunityId(e.target.value);
            setSlotId('');
          }}
          aria-label="community"
        >
          {communities.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>

      <h2>Slots</h2>
      <Loading loading={slots.loading && !slots.data} error={slots.error} />
      {slots.data && slots.data.length === 0 ? <Empty>No slots.</Empty> : null}
      <table aria-label="slots">
        <thead>
          <tr>
            <th className="num">Position</th>
            <th>Key</th>
            <th>Name</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {slots.data?.map((s) => (
            <tr key={s.id} className={slotId === s.id ? 'me' : undefined}>
              <td className="num">{s.position}</td>
              <td>
                <code>{s.key}</code>
              </td>
              <td>{s.name}</td>
              <td>
                <button type="button" className="link" onClick={() => setSlotId(slotId === s.id ? '' : s.id)}>
                  {slotId === s.id ? 'all items' : 'its items'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form onSubmit={newSlot.onSubmit}>
        <h3>New slot</h3>
        <div className="row">
          <Field label="Key" name="key" error={newSlot.errors.fields.key}>
            <input name="key" placeholder="hat" />
          </Field>
          <Field label="Name" name="name" error={newSlot.errors.fields.name}>
            <input name="name" />
          </Field>
          <Field label="Position" name="position" error={newSlot.errors.fields.position}>
            <input name="position" type="number" />
          </Field>
        </div>
        <FormFooter {...newSlot} label="Create slot" />
      </form>

      <h2>Items</h2>
      <Loading loading={items.loading && !items.data} error={items.error} />
      {items.data && items.data.items.length === 0 ? <Empty>No items.</Empty> : null}
      <table aria-label="items">
        <thead>
          <tr>
            <th>Item</th>
            <th>Slot</th>
            <th>Rarity</th>
            <th className="num">Granted</th>
            <th className="num">Supply</th>
            <th className="num">Remaining</th>
          </tr>
        </thead>
        <tbody>
          {items.data?.items.map((i) => (
            <tr key={i.id}>
              <td>{i.name}</td>
              <td>
                <code>{i.slotKey}</code>
              </td>
              <td>{i.rarity}</td>
              <td className="num">{i.granted}</td>
              <td className="num">{i.supply ?? '∞'}</td>
              <td className="num">{i.remaining ?? '∞'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={items.data} page={items.page} setPage={items.setPage} />
      <form onSubmit={newItem.onSubmit}>
        <h3>New item</h3>
        <div className="row">
          <Field label="Slot" name="slotId" error={newItem.errors.fields.slotId}>
            <select name="slotId" defaultValue="">
              <option value="">(choose)</option>
              {slots.data?.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Name" name="name" error={newItem.errors.fields.name}>
            <input name="name" />
          </Field>
          <Field label="Rarity" name="rarity" error={newItem.errors.fields.rarity}>
            <input name="rarity" placeholder="common" />
          </Field>
          <Field label="Supply (empty: unlimited)" name="supply" error={newItem.errors.fields.supply}>
            <input name="supply" type="number" />
          </Field>
        </div>
        <FormFooter {...newItem} label="Create item" />
      </form>
    </section>
  );
}
