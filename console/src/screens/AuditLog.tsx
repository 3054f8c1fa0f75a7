import { Fragment, useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { Empty, Loading, Pager, usePaged, when } from '../ui.tsx';

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: Method[] = ['POST', 'PUT', 'PATCH', 'DELETE'];
type Entry = Schemas['AuditEntryDto'];

/** A datetime-local value as an ISO instant (the browser's time zone); '' is no bound. */
const toInstant = (v: string): string | undefined => {
  const t = new Date(v);
  return v && !Number.isNaN(t.getTime()) ? t.toISOString() : undefined;
};

/**
 * The audit log of management writes (this console's included), newest first: who, which route,
 * on what, with which answer; a row opens on the body sent (secrets redacted by the service).
 */
export function AuditLog() {
  const [route, setRoute] = useState('');
  const [method, setMethod] = useState<Method | ''>('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const list = usePaged(
    (page) =>
      ok(
        api().GET('/v1/admin/audit-log', {
          params: {
            query: {
              route: route.trim() || undefined,
              method: method || undefined,
              actor: actor.trim() || undefined,
              from: toInstant(from),
              to: toInstant(to),
              page,
              limit: 20,
            },
          },
        }),
      ),
    [route, method, actor, from, to],
  );
  return (
    <section>
      <h1>Audit log</h1>
      <p className="muted">
        Every write through the management API, successful or not. An entry is written just after its answer; bodies are shown with secrets
        redacted.
      </p>
      <div className="toolbar">
        <input aria-label="route prefix" placeholder="/v1/admin/communities" value={route} onChange={(e) => setRoute(e.target.value)} />
        <select value={method} onChange={(e) => setMethod(e.target.value as Method | '')} aria-label="method">
          <option value="">Any method</option>
          {METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <input aria-label="actor" placeholder="api-key:…" value={actor} onChange={(e) => setActor(e.target.value)} />
        <label className="small">
          from <input type="datetime-local" aria-label="from" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label className="small">
          to <input type="datetime-local" aria-label="to" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No entries.</Empty> : null}
      <table aria-label="audit log" className="audit">
        <thead>
          <tr>
            <th>When</th>
            <th>Actor</th>
            <th>Request</th>
            <th>Target</th>
            <th className="num">Status</th>
            <th>Resource</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((e) => (
            <Fragment key={e.id}>
              <tr>
                <td>
                  <button type="button" className="link" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                    {when(e.createdAt)}
                  </button>
                </td>
                <td className="small">
                  <code>{e.actor}</code>
                </td>
                <td>
                  <code>
                    {e.method} {e.route}
                  </code>
                </td>
                <td className="small">{targetText(e)}</td>
                <td className="num">
                  <span className={e.statusCode < 400 ? 'badge on' : 'badge'}>{e.statusCode}</span>
                  {e.aborted ? (
                    <span className="badge" title="The client went away before the whole answer was sent">
                      client gone
                    </span>
                  ) : null}
                </td>
                <td className="small">{e.outcome ? <code>{e.outcome}</code> : '—'}</td>
              </tr>
              {open === e.id ? (
                <tr className="details">
                  <td colSpan={6}>
                    {e.body === null ? (
                      <span className="muted">No body.</span>
                    ) : (
                      <pre aria-label="request body">{JSON.stringify(e.body, null, 2)}</pre>
                    )}
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
    </section>
  );
}

const targetText = (e: Entry): string =>
  Object.entries(e.target)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ') || '—';
