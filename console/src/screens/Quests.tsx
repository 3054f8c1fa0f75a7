import { useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { Empty, Field, FormFooter, Loading, Pager, raw, text, usePaged, useSubmit, statusWord, when } from '../ui.tsx';
import { useCommunities } from './Events.tsx';
import { QuestTasks } from './QuestTasks.tsx';

type QuestDto = Schemas['QuestDto'];
const QUEST_FIELDS = ['communityId', 'name', 'type', 'status', 'tags', 'description', 'questEventId', 'recurrence'];
const tags = (d: FormData) =>
  raw(d, 'tags')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');

export function Quests() {
  const communities = useCommunities();
  const [communityId, setCommunityId] = useState('');
  const [editing, setEditing] = useState<QuestDto | null>(null);
  const [tasksOf, setTasksOf] = useState<QuestDto | null>(null);
  const chosen = communityId || communities.data?.[0]?.id || '';
  const list = usePaged(
    (page) =>
      chosen
        ? ok(api().GET('/v1/admin/quests', { params: { query: { communityId: chosen, page, limit: 20 } } }))
        : Promise.resolve({ items: [], page: 1, limit: 20, total: 0, hasNextPage: false }),
    [chosen],
  );
  return (
    <section>
      <h1>Quests</h1>
      <div className="toolbar">
        <select value={chosen} onChange={(e) => setCommunityId(e.target.value)} aria-label="community">
          {communities.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <Loading loading={list.loading && !list.data} error={list.error} />
      {list.data && list.data.items.length === 0 ? <Empty>No quests.</Empty> : null}
      <table>
        <thead>
          <tr>
            <th>Quest</th>
            <th>Type</th>
            <th>Repeats</th>
            <th>Tasks</th>
            <th>Status</th>
            <th>Tags</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((q) => (
            <tr key={q.id}>
              <td>
                {q.name}
                {q.featured ? <span className="badge">featured</span> : null}
              </td>
              <td>{q.type}</td>
              <td>{q.recurrence ?? 'once'}</td>
              <td>{q.taskCount ? q.taskCount : <span className="muted">by the game</span>}</td>
              <td>
                <span className={`badge quest-${q.status}`}>{statusWord(q.status)}</span>
              </td>
              <td>{q.tags.join(', ')}</td>
              <td>{when(q.createdAt)}</td>
              <td>
                <button type="button" className="link" onClick={() => setEditing(q)}>
                  edit
                </button>{' '}
                <button type="button" className="link" onClick={() => setTasksOf(q)}>
                  tasks
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager data={list.data} page={list.page} setPage={list.setPage} />
      {editing ? (
        <QuestForm
          key={editing.id}
          quest={editing}
          communities={communities.data ?? []}
          onSaved={() => (setEditing(null), list.reload())}
        />
      ) : null}
      {tasksOf ? <QuestTasks key={tasksOf.id} quest={tasksOf} quests={list.data?.items ?? []} onChanged={list.reload} /> : null}
      <details className="panel">
        <summary>New quest</summary>
        <QuestForm communities={communities.data ?? []} onSaved={list.reload} />
      </details>
    </section>
  );
}

function QuestForm({ quest, communities, onSaved }: { quest?: QuestDto; communities: Schemas['CommunityDto'][]; onSaved: () => void }) {
  const f = useSubmit(
    async (d) => {
      const common = {
        name: text(d, 'name') ?? '',
        type: text(d, 'type') ?? '',
        status: (text(d, 'status') ?? 'active') as QuestDto['status'],
        tags: tags(d),
        description: raw(d, 'description'),
        featured: d.get('featured') === 'on',
        recurrence: (text(d, 'recurrence') ?? 'once') as NonNullable<QuestDto['recurrence']>,
      };
      if (quest) await ok(api().PATCH('/v1/admin/quests/{questId}', { params: { path: { questId: quest.id } }, body: common }));
      else
        await ok(
          api().POST('/v1/admin/quests', {
            body: { ...common, communityId: text(d, 'communityId') ?? '', questEventId: text(d, 'questEventId') },
          }),
        );
      onSaved();
      return quest ? 'Saved' : 'Created';
    },
    QUEST_FIELDS,
    { reset: !quest },
  );
  return (
    <form className={quest ? 'panel' : undefined} onSubmit={f.onSubmit}>
      {quest ? <h3>Edit “{quest.name}”</h3> : null}
      <div className="row">
        {quest ? null : (
          <Field label="Community" name="communityId" error={f.errors.fields.communityId}>
            <select name="communityId">
              {communities.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field label="Name" name="name" error={f.errors.fields.name}>
          <input name="name" defaultValue={quest?.name} />
        </Field>
        <Field label="Type" name="type" error={f.errors.fields.type} hint="e.g. social, daily">
          <input name="type" defaultValue={quest?.type} />
        </Field>
        <Field label="Status" name="status" error={f.errors.fields.status}>
          <select name="status" defaultValue={quest?.status ?? 'active'}>
            <option value="draft">draft</option>
            <option value="active">active</option>
            <option value="archived">archived</option>
          </select>
        </Field>
      </div>
      <div className="row">
        <Field label="Tags" name="tags" error={f.errors.fields.tags} hint="Comma-separated">
          <input name="tags" defaultValue={quest?.tags.join(', ')} />
        </Field>
        {quest ? null : (
          <Field label="Quest event id" name="questEventId" error={f.errors.fields.questEventId} hint="Scores into that event">
            <input name="questEventId" />
          </Field>
        )}
        <Field label="Repeats" name="recurrence" error={f.errors.fields.recurrence} hint="In the community's time zone">
          <select name="recurrence" defaultValue={quest?.recurrence ?? 'once'}>
            <option value="once">once</option>
            <option value="daily">every day</option>
            <option value="weekly">every week</option>
            <option value="monthly">every month</option>
          </select>
        </Field>
        <Field label="Featured" name="featured">
          <input name="featured" type="checkbox" defaultChecked={quest?.featured} />
        </Field>
      </div>
      <Field label="Description" name="description" error={f.errors.fields.description}>
        <textarea name="description" rows={2} defaultValue={quest?.description ?? ''} />
      </Field>
      <FormFooter {...f} label={quest ? 'Save quest' : 'Create quest'} />
    </form>
  );
}
