import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ok, type Schemas } from '../api.ts';
import { formErrors } from '../errors.ts';
import {
  Empty,
  Field,
  FormFooter,
  instant,
  Loading,
  localInput,
  num,
  numOrDefault,
  Pager,
  text,
  useLoad,
  raw,
  usePaged,
  useSubmit,
  when,
  statusWord,
} from '../ui.tsx';
import { EventTimes } from './Events.tsx';
import { Lifecycle, PARTICIPANT_STATUS } from './lifecycle.tsx';

type EventDto = Schemas['QuestEventDto'];

export function Event() {
  const { eventId = '' } = useParams();
  const ev = useLoad(() => ok(api().GET('/v1/admin/quest-events/{eventId}', { params: { path: { eventId } } })), [eventId]);
  const [tick, setTick] = useState(0);
  const refresh = () => {
    ev.reload();
    setTick((t) => t + 1);
  };
  const e = ev.data;
  return (
    <section>
      <p className="crumbs">
        <Link to="/events">Quest events</Link> /
      </p>
      <h1>{e?.name ?? eventId}</h1>
      <Loading loading={ev.loading && !e} error={ev.error} />
      {e ? (
        <>
          <Lifecycle status={e.status} />
          <p className="muted">
            <code>{e.slug}</code> · registration {when(e.registrationStartsAt)} – {when(e.registrationEndsAt)} · runs {when(e.startsAt)} –{' '}
            {when(e.endsAt)} · {e.registeredCount}
            {e.capacity ? ` / ${e.capacity}` : ''} registered{e.completedAt ? ` · completed ${when(e.completedAt)}` : ''}
          </p>
          <Actions event={e} onChanged={refresh} />
          <Participants event={e} tick={tick} onChanged={refresh} />
          <Rewards event={e} />
          <Allocations event={e} tick={tick} />
          <EditEvent event={e} onSaved={refresh} />
        </>
      ) : null}
    </section>
  );
}

/** Publish, close (allocate now) and cancel, each where the lifecycle allows it. */
function Actions({ event, onChanged }: { event: EventDto; onChanged: () => void }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const run = async (what: string, call: () => Promise<string>) => {
    if (!window.confirm(`${what} "${event.name}"?`)) return;
    setBusy(true);
    try {
      setMessage({ ok: true, text: await call() });
      onChanged();
    } catch (err) {
      setMessage({ ok: false, text: formErrors(err).form ?? 'Failed' });
    } finally {
      setBusy(false);
    }
  };
  const path = { params: { path: { eventId: event.id } } };
  const finished = event.status === 'completed' || event.status === 'cancelled';
  return (
    <div className="actions">
      {event.status === 'draft' ? (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            run(
              'Publish',
              async () => (await ok(api().PATCH('/v1/admin/quest-events/{eventId}', { ...path, body: { publish: true } })), 'Published'),
            )
          }
        >
          Publish
        </button>
      ) : null}
      {event.status === 'active' || event.status === 'ended' ? (
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            run('Close and allocate the rewards of', async () => {
              const r = await ok(api().POST('/v1/admin/quest-events/{eventId}/close', path));
              // A large event is completed in batches: the answer may come before the last one (still `ended`).
              const done = r.event.status === 'completed';
              if (!r.completedNow) return done ? 'It was already completed' : 'Its completion is under way';
              return done
                ? `Closed: ${r.allocationsCreated} allocations made`
                : `Closed: ${r.allocationsCreated} allocations made so far; the rest are being made`;
            })
          }
        >
          Close event
        </button>
      ) : null}
      {!finished ? (
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => run('Cancel', async () => (await ok(api().POST('/v1/admin/quest-events/{eventId}/cancel', path)), 'Cancelled'))}
        >
          Cancel event
        </button>
      ) : null}
      {busy ? <span className="muted">Working…</span> : null}
      {message ? (
        <span className={message.ok ? 'ok' : 'error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </span>
      ) : null}
    </div>
  );
}

function Participants({ event, tick, onChanged }: { event: EventDto; tick: number; onChanged: () => void }) {
  const [status, setStatus] = useState<'' | '1' | '2' | '3' | '4'>('');
  const list = usePaged(
    (page) =>
      ok(
        api().GET('/v1/admin/quest-events/{eventId}/participants', {
          params: {
            path: { eventId: event.id },
            query: { status: status ? (Number(status) as 1 | 2 | 3 | 4) : undefined, page, limit: 20 },
          },
        }),
      ),
    [event.id, status, tick],
  );
  const [error, setError] = useState<string | null>(null);
  const drop = async (p: Schemas['AdminParticipantDto']) => {
    const reason = window.prompt(`Drop ${p.handle} from the event? Reason (kept with the participation):`, '');
    if (reason === null) return;
    try {
      await ok(
        api().POST('/v1/admin/quest-events/{eventId}/participants/drop', {
          params: { path: { eventId: event.id } },
          body: { userId: p.userId, reason: reason || undefined },
        }),
      );
      setError(null);
      onChanged();
    } catch (err) {
      setError(formErrors(err).form);
    }
  };
  return (
    <div className="panel">
      <h2>Participants</h2>
      <div className="toolbar">
        <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)} aria-label="participant status">
          <option value="">Every status</option>
          {Object.entries(PARTICIPANT_STATUS).map(([n, name]) => (
            <option key={n} value={n}>
              {name}
            </option>
          ))}
        </select>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No participants yet.</Empty> : null}
      <table aria-label="participants">
        <thead>
          <tr>
            <th>Player</th>
            <th>Status</th>
            <th className="num">Score</th>
            <th>Registered</th>
            <th>Status since</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((p) => (
            <tr key={p.userId}>
              <td>
                <Link to={`/players/${p.userId}`}>{p.handle}</Link>
              </td>
              <td>
                <span className={`badge participant-${p.status}`} title={`ParticipantStatus ${p.status} (${p.statusName})`}>
                  {PARTICIPANT_STATUS[p.status] ?? statusWord(p.statusName)}
                </span>
                {p.dropReason ? <small className="muted"> {p.dropReason}</small> : null}
              </td>
              <td className="num">{p.score}</td>
              <td>{when(p.registeredAt)}</td>
              <td>{when(p.statusChangedAt)}</td>
              <td>
                {p.status === 1 && event.status !== 'completed' && event.status !== 'cancelled' ? (
                  <button type="button" className="link danger" onClick={() => void drop(p)}>
                    drop
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </div>
  );
}

function Rewards({ event }: { event: EventDto }) {
  const list = useLoad(
    () => ok(api().GET('/v1/admin/quest-events/{eventId}/rewards', { params: { path: { eventId: event.id } } })),
    [event.id],
  );
  // What a reward can give: the resource types and items of the event's community, by name.
  const choices = useLoad(async () => {
    const [types, items] = await Promise.all([
      ok(api().GET('/v1/admin/resources/types', { params: { query: { communityId: event.communityId, page: 1, limit: 100 } } })),
      ok(api().GET('/v1/admin/inventory/items', { params: { query: { communityId: event.communityId, page: 1, limit: 100 } } })),
    ]);
    return { types: types.items, items: items.items };
  }, [event.communityId]);
  const [kind, setKind] = useState<'resource' | 'item' | 'manual'>('resource');
  /** What a reward gives, by name: "25 × Experience points", "1 × Pirate hat", "handed out by you". */
  const gives = (r: { kind: string; amount: number; resourceTypeId: string | null; itemId: string | null }): string => {
    if (r.kind === 'manual') return 'handed out by you';
    const name =
      r.kind === 'resource'
        ? choices.data?.types.find((t) => t.id === r.resourceTypeId)?.name
        : choices.data?.items.find((i) => i.id === r.itemId)?.name;
    return `${r.amount} × ${name ?? r.kind}`;
  };
  const f = useSubmit(
    async (d) => {
      await ok(
        api().POST('/v1/admin/quest-events/{eventId}/rewards', {
          params: { path: { eventId: event.id } },
          body: {
            name: text(d, 'name') ?? '',
            kind: (text(d, 'kind') ?? 'manual') as 'resource' | 'item' | 'manual',
            resourceTypeId: text(d, 'resourceTypeId'),
            itemId: text(d, 'itemId'),
            amount: numOrDefault(d, 'amount'),
            tickets: numOrDefault(d, 'tickets'),
            ticketCost: numOrDefault(d, 'ticketCost'),
            supply: num(d, 'supply'),
            rankFrom: num(d, 'rankFrom'),
            rankTo: num(d, 'rankTo'),
            requiresEmail: d.get('requiresEmail') === 'on',
            requiresWalletAddress: d.get('requiresWalletAddress') === 'on',
            walletChain: (text(d, 'walletChain') ?? 'evm') as 'evm' | 'sui' | 'any',
            requiresAddress: d.get('requiresAddress') === 'on',
          },
        }),
      );
      list.reload();
      setKind('resource');
      return 'Reward added';
    },
    [
      'name',
      'kind',
      'resourceTypeId',
      'itemId',
      'amount',
      'tickets',
      'supply',
      'rankFrom',
      'rankTo',
      'requiresEmail',
      'requiresWalletAddress',
      'walletChain',
      'requiresAddress',
    ],
    { reset: true },
  );
  const open = event.status !== 'completed' && event.status !== 'cancelled';
  return (
    <div className="panel">
      <h2>Rewards</h2>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.length === 0 ? <Empty>No rewards.</Empty> : null}
      <table aria-label="rewards">
        <thead>
          <tr>
            <th>Reward</th>
            <th>Gives</th>
            <th>Ranks</th>
            <th className="num">Tickets</th>
            <th className="num">Claimed / supply</th>
            <th>Claim needs</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.map((r) => (
            <tr key={r.id}>
              <td>{r.name}</td>
              <td>{gives(r)}</td>
              <td>{r.rankFrom || r.rankTo ? `${r.rankFrom ?? 1} – ${r.rankTo ?? '∞'}` : 'all eligible'}</td>
              <td className="num">
                {r.tickets} (cost {r.ticketCost})
              </td>
              <td className="num">
                {r.claimed} / {r.supply ?? '∞'}
              </td>
              <td>{claimNeeds(r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {open ? (
        <details>
          <summary>Add a reward</summary>
          <form onSubmit={f.onSubmit}>
            <div className="row">
              <Field label="Name" name="name" error={f.errors.fields.name}>
                <input name="name" />
              </Field>
              <Field label="Kind" name="kind" error={f.errors.fields.kind}>
                <select name="kind" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
                  <option value="resource">a resource (XP, coins…)</option>
                  <option value="item">an item</option>
                  <option value="manual">handed out by you</option>
                </select>
              </Field>
              {kind === 'resource' ? (
                <Field label="Resource" name="resourceTypeId" error={f.errors.fields.resourceTypeId}>
                  <select name="resourceTypeId" aria-label="resource">
                    {choices.data?.types.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name} ({t.slug})
                      </option>
                    ))}
                  </select>
                </Field>
              ) : null}
              {kind === 'item' ? (
                <Field
                  label="Item"
                  name="itemId"
                  error={f.errors.fields.itemId}
                  hint={choices.data?.items.length === 0 ? 'The community has no items yet (Inventory).' : undefined}
                >
                  <select name="itemId" aria-label="item">
                    {choices.data?.items.map((i) => (
                      <option key={i.id} value={i.id}>
                        {i.name}
                      </option>
                    ))}
                  </select>
                </Field>
              ) : null}
            </div>
            <div className="row">
              <Field label="Amount" name="amount" error={f.errors.fields.amount}>
                <input name="amount" type="number" />
              </Field>
              <Field label="Tickets" name="tickets" error={f.errors.fields.tickets}>
                <input name="tickets" type="number" />
              </Field>
              <Field label="Supply" name="supply" error={f.errors.fields.supply}>
                <input name="supply" type="number" />
              </Field>
              <Field label="From rank" name="rankFrom" error={f.errors.fields.rankFrom}>
                <input name="rankFrom" type="number" />
              </Field>
              <Field label="To rank" name="rankTo" error={f.errors.fields.rankTo}>
                <input name="rankTo" type="number" />
              </Field>
            </div>
            <div className="row">
              <Field label="Claim needs an email" name="requiresEmail" error={f.errors.fields.requiresEmail}>
                <input name="requiresEmail" type="checkbox" />
              </Field>
              <Field label="Claim needs a wallet address" name="requiresWalletAddress" error={f.errors.fields.requiresWalletAddress}>
                <input name="requiresWalletAddress" type="checkbox" />
              </Field>
              <Field label="Wallet chain" name="walletChain" error={f.errors.fields.walletChain} hint="Sui: the players' zkLogin wallets">
                <select name="walletChain">
                  <option value="evm">EVM</option>
                  <option value="sui">Sui</option>
                  <option value="any">either</option>
                </select>
              </Field>
              <Field label="Claim needs a postal address" name="requiresAddress" error={f.errors.fields.requiresAddress}>
                <input name="requiresAddress" type="checkbox" />
              </Field>
            </div>
            <FormFooter {...f} label="Add reward" />
          </form>
        </details>
      ) : null}
    </div>
  );
}

/** What a claim of the reward must give, in words. */
function claimNeeds(r: { requiresEmail: boolean; requiresWalletAddress: boolean; walletChain: string; requiresAddress: boolean }): string {
  const needs = [
    r.requiresEmail ? 'email' : null,
    r.requiresWalletAddress ? `${{ evm: 'EVM', sui: 'Sui', any: 'EVM or Sui' }[r.walletChain] ?? r.walletChain} wallet` : null,
    r.requiresAddress ? 'postal address' : null,
  ].filter(Boolean);
  return needs.length ? needs.join(', ') : 'nothing';
}

function Allocations({ event, tick }: { event: EventDto; tick: number }) {
  const list = usePaged(
    (page) =>
      ok(
        api().GET('/v1/admin/quest-events/{eventId}/allocations', { params: { path: { eventId: event.id }, query: { page, limit: 20 } } }),
      ),
    [event.id, tick],
  );
  return (
    <div className="panel">
      <h2>Allocations</h2>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>None yet: tickets are allocated when the event completes.</Empty> : null}
      <table aria-label="allocations">
        <thead>
          <tr>
            <th className="num">Rank</th>
            <th>Player</th>
            <th>Reward</th>
            <th className="num">Score</th>
            <th className="num">Tickets left</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((a) => (
            <tr key={a.id}>
              <td className="num">{a.rank ?? '—'}</td>
              <td>
                <Link to={`/players/${a.userId}`} title={a.userId}>
                  {a.handle ?? a.userId.slice(0, 8)}
                </Link>
              </td>
              <td>{a.reward.name}</td>
              <td className="num">{a.score}</td>
              <td className="num">
                {a.ticketsRemaining} / {a.tickets}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </div>
  );
}

function EditEvent({ event, onSaved }: { event: EventDto; onSaved: () => void }) {
  const f = useSubmit(
    async (d) => {
      await ok(
        api().PATCH('/v1/admin/quest-events/{eventId}', {
          params: { path: { eventId: event.id } },
          body: {
            name: text(d, 'name'),
            description: raw(d, 'description'),
            registrationStartsAt: instant(d, 'registrationStartsAt'),
            registrationEndsAt: instant(d, 'registrationEndsAt'),
            startsAt: instant(d, 'startsAt'),
            endsAt: instant(d, 'endsAt'),
            capacity: num(d, 'capacity'),
          },
        }),
      );
      onSaved();
      return 'Saved';
    },
    ['name', 'description', 'registrationStartsAt', 'registrationEndsAt', 'startsAt', 'endsAt', 'capacity'],
  );
  if (event.status === 'completed' || event.status === 'cancelled' || event.status === 'ended') return null;
  return (
    <details className="panel">
      <summary>Edit the event</summary>
      <form onSubmit={f.onSubmit} aria-label="edit event">
        <Field label="Name" name="name" error={f.errors.fields.name}>
          <input name="name" defaultValue={event.name} />
        </Field>
        <Field label="Description" name="description" error={f.errors.fields.description}>
          <textarea name="description" rows={2} defaultValue={event.description ?? ''} />
        </Field>
        <EventTimes
          errors={f.errors.fields}
          values={{
            registrationStartsAt: localInput(event.registrationStartsAt),
            registrationEndsAt: localInput(event.registrationEndsAt),
            startsAt: localInput(event.startsAt),
            endsAt: localInput(event.endsAt),
          }}
        />
        <Field label="Capacity" name="capacity" error={f.errors.fields.capacity}>
          <input name="capacity" type="number" defaultValue={event.capacity ?? ''} />
        </Field>
        <FormFooter {...f} label="Save" />
      </form>
    </details>
  );
}
