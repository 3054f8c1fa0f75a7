import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { adminApi, type TestCommunity } from './communities.js';
import type { TestUser } from './factories.js';
import type { TestApp } from './test-app.js';

let n = 0;

/** A quest created through the management API, with the tasks given (each `{kind, title, <settings>}`). */
export async function givenPlayableQuest(
  t: TestApp,
  tenant: TenantCredentials,
  community: TestCommunity,
  fields: Record<string, unknown>,
  tasks: Record<string, unknown>[],
): Promise<{ id: string; tasks: { id: string; kind: string; secret?: string }[] }> {
  const api = adminApi(t, tenant);
  const q = await api.post('/v1/admin/quests', { communityId: community.id, name: `Quest ${++n}`, type: 'play', ...fields });
  if (q.status !== 201) throw new Error(`create quest failed: ${q.status} ${JSON.stringify(q.body)}`);
  const made = [];
  for (const task of tasks) {
    const r = await api.post(`/v1/admin/quests/${q.body.id}/tasks`, { title: `Task ${++n}`, ...task });
    if (r.status !== 201) throw new Error(`create task failed: ${r.status} ${JSON.stringify(r.body)}`);
    made.push(r.body as { id: string; kind: string; secret?: string });
  }
  return { id: q.body.id as string, tasks: made };
}

/** The player's routes of one quest. */
export function play(t: TestApp, u: TestUser, questId: string) {
  return {
    show: () => t.http().get(`/v1/quests/${questId}`).set('Authorization', u.auth),
    claim: () => t.http().post(`/v1/quests/${questId}/claim`).set('Authorization', u.auth),
    answer: (taskId: string, answer: unknown) =>
      t.http().post(`/v1/quests/${questId}/tasks/${taskId}/answer`).set('Authorization', u.auth).send({ answer }),
    submit: (taskId: string, content: unknown) =>
      t.http().post(`/v1/quests/${questId}/tasks/${taskId}/submission`).set('Authorization', u.auth).send({ content }),
  };
}

/** The player's balance and earned total of a resource type. */
export async function balanceOf(t: TestApp, userId: string, resourceTypeId: string): Promise<{ balance: number; earned: number }> {
  const rows: { balance: string; earned: string }[] = await t.dataSource.query(
    'SELECT balance::text, earned::text FROM resource_balances WHERE user_id = $1 AND resource_type_id = $2',
    [userId, resourceTypeId],
  );
  return { balance: Number(rows[0]?.balance ?? 0), earned: Number(rows[0]?.earned ?? 0) };
}
