import { Fragment, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import {
  Empty,
  Field,
  FormFooter,
  instant,
  Loading,
  localInput,
  Pager,
  text,
  useLoad,
  usePaged,
  useSubmit,
  statusWord,
  when,
} from '../ui.tsx';

type Subscription = Schemas['SubscriptionDto'];
type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'dead';
const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'delivering', 'delivered', 'dead'];

/**
 * Webhook subscriptions (the signing secret shown once, at creation and rotation), their
 * deliveries with every attempt, and redelivery of one delivery or of a window's failed ones.
 */
export function Webhooks() {
  // The subscriptions are few (the API caps them per tenant) and listed whole, oldest first.
  const subs = useLoad(() => ok(api().GET('/v1/admin/webhooks/subscriptions')).then((r) => r.items), []);
  const [secret, setSecret] = useState<{ id: string; url: string; secret: string; why: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  // Remounted (closed and emptied) after each creation.
  const [created, setCreated] = useState(0);
  const act = async (run: () => Promise<unknown>) => {
    setError(null);
    try {
      await run();
      subs.reload();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const rotate = (s: Subscription) =>
    act(async () => {
      const r = await ok(
        api().POST('/v1/admin/webhooks/subscriptions/{subscriptionId}/rotate-secret', {
          params: { path: { subscriptionId: s.id } },
          body: { overlapSeconds: 86400 },
        }),
      );
      setSecret({ id: r.id, url: r.url, secret: r.secret, why: 'New signing secret (the previous one also signs for a day)' });
    });
  const setActive = (s: Subscription, active: boolean) =>
    act(() =>
      ok(
        api().PATCH('/v1/admin/webhooks/subscriptions/{subscriptionId}', { params: { path: { subscriptionId: s.id } }, body: { active } }),
      ),
    );
  const remove = (s: Subscription) => {
    if (!window.confirm(`Delete the subscription to ${s.url}, with its deliveries?`)) return;
    void act(async () => {
      await ok(api().DELETE('/v1/admin/webhooks/subscriptions/{subscriptionId}', { params: { path: { subscriptionId: s.id } } }));
      if (secret?.id === s.id) setSecret(null);
    });
  };
  return (
    <section>
      <h1>Webhooks</h1>
      {secret ? (
        <div className="panel secret" role="status" aria-label="signing secret">
          <strong>{secret.why}</strong> for <code>{secret.url}</code>. Copy it now: it is never shown again.
          <pre>{secret.secret}</pre>
          <button type="button" onClick={() => setSecret(null)}>
            I have copied it
          </button>
        </div>
      ) : null}
      <h2>Subscriptions</h2>
      <Loading loading={subs.loading && !subs.data} error={subs.error ?? error ?? undefined} />
      {subs.data && subs.data.length === 0 ? <Empty>No subscription: nothing is delivered.</Empty> : null}
      {subs.data && subs.data.length > 0 ? (
        <table aria-label="subscriptions">
          <thead>
            <tr>
              <th>URL</th>
              <th>Event types</th>
              <th>State</th>
              <th>Created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {subs.data.map((s) => (
              <tr key={s.id}>
                <td>
                  <code>{s.url}</code>
                  {s.description ? <div className="muted small">{s.description}</div> : null}
                </td>
                <td className="small">{s.eventTypes.join(', ')}</td>
                <td>
                  <span className={s.active ? 'badge on' : 'badge'}>{s.active ? 'active' : 'inactive'}</span>
                  {s.previousSecretExpiresAt && new Date(s.previousSecretExpiresAt) > new Date() ? (
                    <div className="muted small">two secrets sign until {when(s.previousSecretExpiresAt)}</div>
                  ) : null}
                </td>
                <td>{when(s.createdAt)}</td>
                <td className="actions-cell">
                  <button type="button" className="link" onClick={() => setFilter(s.id)}>
                    deliveries
                  </button>{' '}
                  <button type="button" className="link" onClick={() => void rotate(s)}>
                    rotate secret
                  </button>{' '}
                  <button type="button" className="link" onClick={() => void setActive(s, !s.active)}>
                    {s.active ? 'deactivate' : 'activate'}
                  </button>{' '}
                  <button type="button" className="link danger" onClick={() => remove(s)}>
                    delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <CreateSubscription
        key={created}
        onCreated={(s) => {
          setSecret({ id: s.id, url: s.url, secret: s.secret, why: 'Signing secret' });
          setCreated((n) => n + 1);
          subs.reload();
        }}
      />
      <Deliveries subscriptions={subs.data ?? []} subscriptionId={filter} setSubscriptionId={setFilter} />
    </section>
  );
}

function CreateSubscription({ onCreated }: { onCreated: (s: Schemas['SubscriptionWithSecretDto']) => void }) {
  const types = useLoad(() => ok(api().GET('/v1/admin/webhooks/event-types')).then((r) => r.items), []);
  const f = useSubmit(
    async (d) => {
      const eventTypes = d.getAll('eventTypes').filter((x): x is string => typeof x === 'string');
      const s = await ok(
        api().POST('/v1/admin/webhooks/subscriptions', {
          body: { url: text(d, 'url') ?? '', eventTypes, description: text(d, 'description'), active: d.get('active') === 'on' },
        }),
      );
      onCreated(s);
      return 'Created';
    },
    ['url', 'eventTypes', 'description', 'active'],
    { reset: true },
  );
  return (
    <details className="panel">
      <summary>New subscription</summary>
      <form onSubmit={f.onSubmit} aria-label="new subscription">
        <div className="row">
          <Field label="URL" name="url" error={f.errors.fields.url} hint="http(s), reachable from the service; deliveries are POSTed there">
            <input name="url" placeholder="https://game.example.com/hooks/cgs" />
          </Field>
          <Field label="Description" name="description" error={f.errors.fields.description}>
            <input name="description" />
          </Field>
          <Field label="Active" name="active">
            <input name="active" type="checkbox" defaultChecked />
          </Field>
        </div>
        {/* A fieldset, not a Field: a label may not hold the checkboxes' own labels. */}
        <fieldset className={f.errors.fields.eventTypes ? 'field invalid' : 'field'} data-field="eventTypes">
          <legend>Event types</legend>
          <div className="checks">
            <label>
              <input type="checkbox" name="eventTypes" value="*" /> <code>*</code> every type
            </label>
            {types.data?.map((t) => (
              <label key={t.type} title={t.description}>
                <input type="checkbox" name="eventTypes" value={t.type} /> <code>{t.type}</code>
              </label>
            ))}
          </div>
          {f.errors.fields.eventTypes ? (
            <small className="field-error" role="alert">
              {f.errors.fields.eventTypes}
            </small>
          ) : null}
        </fieldset>
        <FormFooter {...f} label="Create subscription" />
      </form>
    </details>
  );
}

function Deliveries({
  subscriptions,
  subscriptionId,
  setSubscriptionId,
}: {
  subscriptions: Subscription[];
  subscriptionId: string;
  setSubscriptionId: (id: string) => void;
}) {
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const [open, setOpen] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const list = usePaged(
    (page) =>
      ok(
        api().GET('/v1/admin/webhooks/deliveries', {
          params: { query: { subscriptionId: subscriptionId || undefined, status: status || undefined, page, limit: 20 } },
        }),
      ),
    [subscriptionId, status],
  );
  const urls = new Map(subscriptions.map((s) => [s.id, s.url]));
  const redeliver = async (id: string) => {
    setNote(null);
    try {
      const r = await ok(api().POST('/v1/admin/webhooks/deliveries/{deliveryId}/redeliver', { params: { path: { deliveryId: id } } }));
      setNote(`Queued again: ${r.requeued}`);
      list.reload();
    } catch (e) {
      setNote(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <div>
      <h2>Deliveries</h2>
      <div className="toolbar">
        <select value={subscriptionId} onChange={(e) => setSubscriptionId(e.target.value)} aria-label="subscription">
          <option value="">Every subscription</option>
          {subscriptions.map((s) => (
            <option key={s.id} value={s.id}>
              {s.url}
            </option>
          ))}
        </select>
        <select value={status} onChange={(e) => setStatus(e.target.value as DeliveryStatus | '')} aria-label="delivery status">
          <option value="">Any status</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
        {note ? (
          <span className="ok" role="status">
            {note}
          </span>
        ) : null}
      </div>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No deliveries.</Empty> : null}
      <table aria-label="deliveries">
        <thead>
          <tr>
            <th>Created</th>
            <th>Event</th>
            <th>Subscription</th>
            <th>Status</th>
            <th className="num">Attempts</th>
            <th>Last answer</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((d) => (
            <Fragment key={d.id}>
              <tr>
                <td>{when(d.createdAt)}</td>
                <td>
                  <code>{d.eventType}</code>
                </td>
                <td className="small">{urls.get(d.subscriptionId) ?? d.subscriptionId.slice(0, 8)}</td>
                <td>
                  <span className={`badge delivery-${d.status}`}>{statusWord(d.status)}</span>
                  {d.status === 'pending' && d.attempts > 0 ? <div className="muted small">next {when(d.nextAttemptAt)}</div> : null}
                </td>
                <td className="num">
                  <button type="button" className="link" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>
                    {d.history.length}
                  </button>
                </td>
                <td>{d.lastStatusCode ?? d.lastError ?? (d.deliveredAt ? 'delivered' : '—')}</td>
                <td>
                  <button type="button" className="link" onClick={() => void redeliver(d.id)}>
                    redeliver
                  </button>
                </td>
              </tr>
              {open === d.id ? (
                <tr className="attempts">
                  <td colSpan={7}>
                    <table aria-label="attempts">
                      <thead>
                        <tr>
                          <th>Attempt</th>
                          <th>When</th>
                          <th className="num">HTTP status</th>
                          <th className="num">Duration</th>
                          <th>Error</th>
                        </tr>
                      </thead>
                      <tbody>
                        {d.history.map((a, i) => (
                          <tr key={i}>
                            <td>{i + 1}</td>
                            <td>{when(a.attemptedAt)}</td>
                            <td className={a.statusCode !== null && a.statusCode < 300 ? 'num' : 'num neg'}>
                              {a.statusCode ?? 'no answer'}
                            </td>
                            <td className="num">{a.durationMs} ms</td>
                            <td>{a.error ?? ''}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                    <p className="muted small">
                      Event id <code>{d.eventId}</code> (the receiver's <code>X-CGS-Event-Id</code>)
                    </p>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
      <RedeliverWindow subscriptions={subscriptions} subscriptionId={subscriptionId} onDone={list.reload} />
    </div>
  );
}

/** Every failed (dead, or waiting for a retry after a failure) delivery of a window, queued again. */
function RedeliverWindow({
  subscriptions,
  subscriptionId,
  onDone,
}: {
  subscriptions: Subscription[];
  subscriptionId: string;
  onDone: () => void;
}) {
  const now = Date.now();
  const f = useSubmit(
    async (d) => {
      const id = text(d, 'subscriptionId') ?? '';
      const r = await ok(
        api().POST('/v1/admin/webhooks/subscriptions/{subscriptionId}/redeliver', {
          params: { path: { subscriptionId: id } },
          // An empty "before" is the moment of the click, not of when the form was drawn.
          body: { from: instant(d, 'from') ?? '', to: instant(d, 'to') ?? new Date().toISOString() },
        }),
      );
      onDone();
      return `Queued again: ${r.requeued} failed deliveries`;
    },
    ['subscriptionId', 'from', 'to'],
  );
  return (
    <details className="panel">
      <summary>Redeliver the failed deliveries of a window</summary>
      <form onSubmit={f.onSubmit} aria-label="redeliver failed">
        <div className="row">
          <Field label="Subscription" name="subscriptionId" error={f.errors.fields.subscriptionId}>
            <select name="subscriptionId" defaultValue={subscriptionId} key={subscriptionId}>
              {subscriptions.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.url}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Created from" name="from" error={f.errors.fields.from}>
            <input name="from" type="datetime-local" defaultValue={localInput(new Date(now - 86_400_000).toISOString())} />
          </Field>
          <Field label="Created before (empty: now)" name="to" error={f.errors.fields.to}>
            <input name="to" type="datetime-local" />
          </Field>
        </div>
        <FormFooter {...f} label="Redeliver failed" />
      </form>
    </details>
  );
}
