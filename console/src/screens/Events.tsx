import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
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
  when,
  TIME_ZONE,
} from '../ui.tsx';
import { STATUS_LABELS, StatusBadge } from './lifecycle.tsx';

export const EVENT_STATUSES = ['draft', 'upcoming', 'registration_open', 'active', 'ended', 'completed', 'cancelled'] as const;
type EventStatus = (typeof EVENT_STATUSES)[number];

/** The tenant's communities (first 100: the pickers of the forms and filters). */
export function useCommunities() {
  return useLoad(() => ok(api().GET('/v1/admin/communities', { params: { query: { page: 1, limit: 100 } } })).then((p) => p.items), []);
}

export function Events() {
  const communities = useCommunities();
  const [communityId, setCommunityId] = useState('');
  const [status, setStatus] = useState<EventStatus | ''>('');
  const list = usePaged(
    (page) =>
      ok(
        api().GET('/v1/admin/quest-events', {
          params: { query: { communityId: communityId || undefined, status: status || undefined, page, limit: 20 } },
        }),
      ),
    [communityId, status],
  );
  const names = new Map(communities.data?.map((c) => [c.id, c.name]));
  return (
    <section>
      <h1>Quest events</h1>
      <div className="toolbar">
        <select value={communityId} onChange={(e) => setCommunityId(e.target.value)} aria-label="community">
          <option value="">All communities</option>
          {communities.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <select value={status} onChange={(e) => setStatus(e.target.value as EventStatus | '')} aria-label="status">
          <option value="">Any status</option>
          {EVENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
        <button type="button" onClick={list.reload}>
          Refresh
        </button>
      </div>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No events.</Empty> : null}
      <table>
        <thead>
          <tr>
            <th>Event</th>
            <th>Community</th>
            <th>Status</th>
            <th>Starts</th>
            <th>Ends</th>
            <th className="num">Registered</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((e) => (
            <tr key={e.id}>
              <td>
                <Link to={`/events/${e.id}`}>{e.name}</Link> <code className="muted">{e.slug}</code>
              </td>
              <td>{names.get(e.communityId) ?? e.communityId}</td>
              <td>
                <StatusBadge status={e.status} />
              </td>
              <td>{when(e.startsAt)}</td>
              <td>{when(e.endsAt)}</td>
              <td className="num">
                {e.registeredCount}
                {e.capacity ? ` / ${e.capacity}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
      <CreateEvent communities={communities.data ?? []} />
    </section>
  );
}

const EVENT_FIELDS = [
  'communityId',
  'slug',
  'name',
  'description',
  'registrationStartsAt',
  'registrationEndsAt',
  'startsAt',
  'endsAt',
  'capacity',
  'minScore',
  'maxRank',
  'scoreResourceTypeId',
];

function CreateEvent({ communities }: { communities: Schemas['CommunityDto'][] }) {
  const navigate = useNavigate();
  const f = useSubmit(async (d) => {
    const e = await ok(
      api().POST('/v1/admin/quest-events', {
        body: {
          communityId: text(d, 'communityId') ?? '',
          slug: text(d, 'slug') ?? '',
          name: text(d, 'name') ?? '',
          description: text(d, 'description'),
          registrationStartsAt: instant(d, 'registrationStartsAt') ?? '',
          registrationEndsAt: instant(d, 'registrationEndsAt') ?? '',
          startsAt: instant(d, 'startsAt') ?? '',
          endsAt: instant(d, 'endsAt') ?? '',
          capacity: num(d, 'capacity'),
          minScore: numOrDefault(d, 'minScore'),
          maxRank: num(d, 'maxRank'),
          publish: d.get('publish') === 'on',
        },
      }),
    );
    void navigate(`/events/${e.id}`);
  }, EVENT_FIELDS);
  return (
    <details className="panel">
      <summary>New quest event</summary>
      <form onSubmit={f.onSubmit} aria-label="new quest event">
        <div className="row">
          <Field label="Community" name="communityId" error={f.errors.fields.communityId}>
            <select name="communityId">
              {communities.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Name" name="name" error={f.errors.fields.name}>
            <input name="name" />
          </Field>
          <Field label="Slug" name="slug" error={f.errors.fields.slug}>
            <input name="slug" />
          </Field>
        </div>
        <Field label="Description" name="description" error={f.errors.fields.description}>
          <textarea name="description" rows={2} />
        </Field>
        <EventTimes errors={f.errors.fields} />
        <div className="row">
          <Field label="Capacity" name="capacity" error={f.errors.fields.capacity} hint="Empty: no limit">
            <input name="capacity" type="number" min={1} />
          </Field>
          <Field label="Minimum score" name="minScore" error={f.errors.fields.minScore}>
            <input name="minScore" type="number" min={0} />
          </Field>
          <Field label="Best ranks rewarded" name="maxRank" error={f.errors.fields.maxRank} hint="Empty: everyone eligible">
            <input name="maxRank" type="number" min={1} />
          </Field>
          <Field label="Publish now" name="publish" hint="Unticked: a draft, invisible to players">
            <input name="publish" type="checkbox" defaultChecked />
          </Field>
        </div>
        <FormFooter {...f} label="Create event" />
      </form>
    </details>
  );
}

export function EventTimes({ errors, values }: { errors: Record<string, string>; values?: Partial<Record<string, string>> }) {
  const times = [
    ['registrationStartsAt', 'Registration opens'],
    ['registrationEndsAt', 'Registration closes'],
    ['startsAt', 'Starts'],
    ['endsAt', 'Ends'],
  ] as const;
  return (
    <div className="row">
      {times.map(([name, label]) => (
        <Field key={name} label={label} name={name} error={errors[name]} hint={`your time (${TIME_ZONE})`}>
          <input name={name} type="datetime-local" defaultValue={values?.[name]} />
        </Field>
      ))}
    </div>
  );
}
