import { useState } from 'react';
import { api, ok, type Schemas } from '../api.ts';
import { Empty, Field, FormFooter, Loading, num, raw, text, useLoad, useSubmit } from '../ui.tsx';

type TaskDto = Schemas['QuestTaskDto'];
type Kind = Schemas['CreateQuestTaskDto']['kind'];
type QuestDto = Schemas['QuestDto'];

/** What each kind asks of the player, in the operator's words. */
const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'answer', label: 'Answer (a quiz or code word)' },
  { kind: 'submission', label: 'Submission (reviewed)' },
  { kind: 'visit', label: 'Visit a link' },
  { kind: 'social', label: 'Linked social (Discord role, X follow)' },
  { kind: 'onchain', label: 'On-chain holding' },
  { kind: 'partner', label: "Partner's check (your endpoint)" },
  { kind: 'game_event', label: 'Game events (count or sum)' },
  { kind: 'referrals', label: 'Referrals' },
  { kind: 'resource', label: 'Resource balance' },
  { kind: 'quest', label: 'Another quest completed' },
];

const list = (s: string) =>
  s
    .split(/[\n,]/)
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** The settings body of a kind from the form (its fields are named `<kind>.<setting>`). */
function settings(kind: Kind, d: FormData): Record<string, unknown> {
  const t = (n: string) => text(d, `${kind}.${n}`);
  const n = (x: string) => num(d, `${kind}.${x}`);
  const on = (x: string) => d.get(`${kind}.${x}`) === 'on';
  switch (kind) {
    case 'answer':
      return {
        answers: list(raw(d, 'answer.answers')),
        caseSensitive: on('caseSensitive'),
        ignoreAccents: on('ignoreAccents'),
        spaces: t('spaces'),
        maxAttempts: n('maxAttempts'),
        retryAfterSeconds: n('retryAfterSeconds'),
      };
    case 'submission':
      return { format: t('format'), maxLength: n('maxLength'), autoApprove: on('autoApprove'), instructions: t('instructions') };
    case 'visit':
      return { url: t('url') };
    case 'social':
      return {
        accountType: t('accountType'),
        discordGuildId: t('discordGuildId'),
        discordRoleId: t('discordRoleId'),
        xFollowsUserId: t('xFollowsUserId'),
      };
    case 'onchain': {
      const args = list(raw(d, 'onchain.args'));
      return {
        chain: t('chain'),
        standard: t('standard'),
        contract: t('contract'),
        minBalance: t('minBalance'),
        signature: t('signature'),
        args: args.length ? args : undefined,
        equals: t('equals'),
        atLeast: t('atLeast'),
      };
    }
    case 'partner':
      return { url: t('url'), timeoutMs: n('timeoutMs') };
    case 'game_event':
      return { eventType: t('eventType'), aggregate: t('aggregate'), atLeast: n('atLeast'), window: t('window') };
    case 'referrals':
      return { atLeast: n('atLeast') };
    case 'resource':
      return { resourceTypeId: t('resourceTypeId'), measure: t('measure'), atLeast: n('atLeast') };
    case 'quest':
      return { questId: t('questId') };
  }
}

const property = (kind: Kind) => (kind === 'game_event' ? 'gameEvent' : kind);

/** A short line of a task's settings, as the operator set them (an answer task's answers are never shown: only how many). */
function summary(t: TaskDto): string {
  const s = t.settings as Record<string, unknown>;
  return Object.entries(s)
    .filter(([, v]) => v !== null && v !== '' && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`)
    .join(' · ');
}

/** A quest's tasks: the list, removal, and a form per kind to add one. */
export function QuestTasks({ quest, quests, onChanged }: { quest: QuestDto; quests: QuestDto[]; onChanged: () => void }) {
  const tasks = useLoad(() => ok(api().GET('/v1/admin/quests/{questId}/tasks', { params: { path: { questId: quest.id } } })), [quest.id]);
  const types = useLoad(
    () => ok(api().GET('/v1/admin/resources/types', { params: { query: { communityId: quest.communityId, page: 1, limit: 100 } } })),
    [quest.communityId],
  );
  const [kind, setKind] = useState<Kind>('answer');
  const [secret, setSecret] = useState<string | null>(null);
  const f = useSubmit(
    async (d) => {
      const made = await ok(
        api().POST('/v1/admin/quests/{questId}/tasks', {
          params: { path: { questId: quest.id } },
          body: {
            kind,
            title: text(d, 'title') ?? '',
            description: text(d, 'description'),
            [property(kind)]: settings(kind, d),
          },
        }),
      );
      setSecret(made.secret ?? null);
      tasks.reload();
      onChanged();
      return 'Task added';
    },
    ['title', 'description'],
    { reset: true },
  );
  const remove = async (t: TaskDto) => {
    if (!window.confirm(`Remove the task “${t.title}”? Players' progress on it goes with it.`)) return;
    await ok(api().DELETE('/v1/admin/quests/{questId}/tasks/{taskId}', { params: { path: { questId: quest.id, taskId: t.id } } }));
    tasks.reload();
    onChanged();
  };
  const k = (n: string) => `${kind}.${n}`;
  const err = (n: string) => f.errors.fields[`${property(kind)}.${n}`];
  return (
    <div className="panel">
      <h3>Tasks of “{quest.name}”</h3>
      <p className="muted">
        Players claim a quest with tasks themselves; the service checks each task and credits the rewards once per{' '}
        {quest.recurrence && quest.recurrence !== 'once' ? quest.recurrence.replace('ly', '').replace('dai', 'day') : 'player'}.
      </p>
      <Loading loading={tasks.loading && !tasks.data} error={tasks.error} />
      {tasks.data && tasks.data.length === 0 ? <Empty>No tasks: the game completes this quest through the management API.</Empty> : null}
      {tasks.data && tasks.data.length > 0 ? (
        <table aria-label="tasks">
          <thead>
            <tr>
              <th>#</th>
              <th>Task</th>
              <th>Kind</th>
              <th>Settings</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tasks.data.map((t) => (
              <tr key={t.id}>
                <td>{t.position + 1}</td>
                <td>{t.title}</td>
                <td>{KINDS.find((x) => x.kind === t.kind)?.label ?? t.kind}</td>
                <td className="muted">{summary(t)}</td>
                <td>
                  <button type="button" className="link" onClick={() => void remove(t)}>
                    remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {secret ? (
        <p className="ok" role="status" aria-label="partner secret">
          The partner's signing secret, shown once: <code>{secret}</code>
        </p>
      ) : null}
      <form key={`${kind}-${tasks.data?.length ?? 0}`} onSubmit={f.onSubmit}>
        <h4>Add a task</h4>
        <div className="row">
          <Field label="Kind" name="kind">
            <select name="kind" value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
              {KINDS.map((x) => (
                <option key={x.kind} value={x.kind}>
                  {x.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Title" name="title" error={f.errors.fields.title}>
            <input name="title" />
          </Field>
          <Field label="Description" name="description" error={f.errors.fields.description}>
            <input name="description" />
          </Field>
        </div>
        <div className="row">
          {kind === 'answer' ? (
            <>
              <Field
                label="Accepted answers"
                name={k('answers')}
                error={err('answers')}
                hint="One per line; stored hashed, never shown again"
              >
                <textarea name={k('answers')} rows={2} />
              </Field>
              <Field label="White space" name={k('spaces')}>
                <select name={k('spaces')} defaultValue="collapse">
                  <option value="collapse">collapse runs</option>
                  <option value="trim">trim the ends</option>
                  <option value="remove">ignore all</option>
                  <option value="exact">exact</option>
                </select>
              </Field>
              <Field label="Case matters" name={k('caseSensitive')}>
                <input type="checkbox" name={k('caseSensitive')} />
              </Field>
              <Field label="Ignore accents" name={k('ignoreAccents')}>
                <input type="checkbox" name={k('ignoreAccents')} />
              </Field>
              <Field label="Attempts per period" name={k('maxAttempts')} error={err('maxAttempts')} hint="Empty: no limit">
                <input name={k('maxAttempts')} inputMode="numeric" />
              </Field>
              <Field label="Wait after a wrong answer (s)" name={k('retryAfterSeconds')} error={err('retryAfterSeconds')}>
                <input name={k('retryAfterSeconds')} inputMode="numeric" />
              </Field>
            </>
          ) : null}
          {kind === 'submission' ? (
            <>
              <Field label="Format" name={k('format')}>
                <select name={k('format')} defaultValue="url">
                  <option value="url">a link</option>
                  <option value="text">a text</option>
                </select>
              </Field>
              <Field label="Longest (characters)" name={k('maxLength')} error={err('maxLength')}>
                <input name={k('maxLength')} inputMode="numeric" />
              </Field>
              <Field label="Approve at once" name={k('autoApprove')}>
                <input type="checkbox" name={k('autoApprove')} />
              </Field>
              <Field label="Instructions" name={k('instructions')} error={err('instructions')}>
                <input name={k('instructions')} />
              </Field>
            </>
          ) : null}
          {kind === 'visit' || kind === 'partner' ? (
            <Field label={kind === 'visit' ? 'Page to open' : 'Your endpoint'} name={k('url')} error={err('url')}>
              <input name={k('url')} placeholder="https://" />
            </Field>
          ) : null}
          {kind === 'partner' ? (
            <Field label="Timeout (ms)" name={k('timeoutMs')} error={err('timeoutMs')}>
              <input name={k('timeoutMs')} inputMode="numeric" />
            </Field>
          ) : null}
          {kind === 'social' ? (
            <>
              <Field label="Account type" name={k('accountType')} error={err('accountType')}>
                <input name={k('accountType')} defaultValue="discord" />
              </Field>
              <Field
                label="Discord guild id"
                name={k('discordGuildId')}
                error={err('discordGuildId')}
                hint="Needs the community's bot token"
              >
                <input name={k('discordGuildId')} />
              </Field>
              <Field label="Discord role id" name={k('discordRoleId')} error={err('discordRoleId')}>
                <input name={k('discordRoleId')} />
              </Field>
              <Field label="X account to follow (user id)" name={k('xFollowsUserId')} error={err('xFollowsUserId')}>
                <input name={k('xFollowsUserId')} />
              </Field>
            </>
          ) : null}
          {kind === 'onchain' ? (
            <>
              <Field label="Chain" name={k('chain')} error={err('chain')} hint="A name of QUEST_CHAINS">
                <input name={k('chain')} />
              </Field>
              <Field label="Standard" name={k('standard')}>
                <select name={k('standard')} defaultValue="erc20">
                  <option value="erc20">ERC-20 balance</option>
                  <option value="erc721">ERC-721 balance</option>
                  <option value="call">a view function</option>
                </select>
              </Field>
              <Field label="Contract" name={k('contract')} error={err('contract')}>
                <input name={k('contract')} placeholder="0x…" />
              </Field>
              <Field label="Least balance" name={k('minBalance')} error={err('minBalance')} hint="Base units">
                <input name={k('minBalance')} />
              </Field>
              <Field label="Function" name={k('signature')} error={err('signature')} hint="function f(address) view returns (bool)">
                <input name={k('signature')} />
              </Field>
              <Field label="Arguments" name={k('args')} error={err('args')} hint="Comma-separated; {wallet} is the player's">
                <input name={k('args')} />
              </Field>
            </>
          ) : null}
          {kind === 'game_event' ? (
            <>
              <Field label="Event type" name={k('eventType')} error={err('eventType')}>
                <input name={k('eventType')} placeholder="match_won" />
              </Field>
              <Field label="Count or sum" name={k('aggregate')}>
                <select name={k('aggregate')} defaultValue="count">
                  <option value="count">count</option>
                  <option value="sum">sum of values</option>
                </select>
              </Field>
              <Field label="At least" name={k('atLeast')} error={err('atLeast')}>
                <input name={k('atLeast')} inputMode="numeric" />
              </Field>
              <Field label="Events of" name={k('window')}>
                <select name={k('window')} defaultValue="period">
                  <option value="period">this period</option>
                  <option value="all">all time</option>
                </select>
              </Field>
            </>
          ) : null}
          {kind === 'referrals' ? (
            <Field label="Members referred, at least" name={k('atLeast')} error={err('atLeast')}>
              <input name={k('atLeast')} inputMode="numeric" />
            </Field>
          ) : null}
          {kind === 'resource' ? (
            <>
              <Field label="Resource" name={k('resourceTypeId')} error={err('resourceTypeId')}>
                <select name={k('resourceTypeId')}>
                  {types.data?.items.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name} ({r.slug})
                    </option>
                  ))}
                </select>
              </Field>
              <Field label="Measure" name={k('measure')}>
                <select name={k('measure')} defaultValue="earned">
                  <option value="earned">earned in all</option>
                  <option value="balance">balance now</option>
                </select>
              </Field>
              <Field label="At least" name={k('atLeast')} error={err('atLeast')}>
                <input name={k('atLeast')} inputMode="numeric" />
              </Field>
            </>
          ) : null}
          {kind === 'quest' ? (
            <Field label="Quest" name={k('questId')} error={err('questId')}>
              <select name={k('questId')}>
                {quests
                  .filter((q) => q.id !== quest.id)
                  .map((q) => (
                    <option key={q.id} value={q.id}>
                      {q.name}
                    </option>
                  ))}
              </select>
            </Field>
          ) : null}
        </div>
        <FormFooter {...f} label="Add task" />
      </form>
    </div>
  );
}
