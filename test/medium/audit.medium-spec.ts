import { AuditModule } from '../../src/audit/audit.module.js';
import { AuditLogRepository, type NewAuditEntry } from '../../src/audit/audit-log.repository.js';
import { TenantsModule } from '../../src/tenants/tenants.module.js';
import { createModuleTest, type ModuleTest } from './harness.js';
import { givenTenant } from './fixtures.js';

/** The audit log's batch insert on the real database: every column of every row as given. */
describe('AuditLogRepository (medium: AuditModule on PostgreSQL)', () => {
  let t: ModuleTest;
  let repo: AuditLogRepository;
  let tenantId: string;

  beforeAll(async () => {
    t = await createModuleTest({ imports: [AuditModule, TenantsModule] });
    repo = t.get(AuditLogRepository);
    tenantId = await givenTenant(t);
  });
  afterAll(() => t?.close());

  it('insertMany writes each entry of a batch as given: JSON with quotes, backslashes, braces and non-ASCII text, null bodies and outcomes', async () => {
    const at = new Date('2026-11-27T05:00:00.123Z');
    const entries: NewAuditEntry[] = [
      {
        tenantId,
        actor: 'api-key:0123456789ab',
        method: 'POST',
        route: '/v1/admin/resources/grants',
        target: {},
        body: { reason: 'say "hi" \\ {x} [y], ok', nested: { list: [1, null, 'é'], empty: '' }, emoji: '🎮' },
        statusCode: 201,
        outcome: 'grant-1',
        aborted: false,
        createdAt: at,
      },
      {
        tenantId,
        actor: 'api-key:ba9876543210',
        method: 'DELETE',
        route: '/v1/admin/communities/:communityId',
        target: { communityId: '7d0c5f4e-0000-4000-8000-000000000001' },
        body: null,
        statusCode: 204,
        outcome: null,
        aborted: true,
        createdAt: new Date(at.getTime() + 1),
      },
    ];
    await repo.insertMany(entries);
    await repo.insertMany([]);
    const rows = await t.dataSource.query<Record<string, unknown>[]>(
      `SELECT tenant_id, actor, method, route, target, body, status_code, outcome, aborted, created_at
       FROM admin_audit_log WHERE tenant_id = $1 ORDER BY created_at`,
      [tenantId],
    );
    expect(rows).toEqual(
      entries.map((e) => ({
        tenant_id: e.tenantId,
        actor: e.actor,
        method: e.method,
        route: e.route,
        target: e.target,
        body: e.body,
        status_code: e.statusCode,
        outcome: e.outcome,
        aborted: e.aborted,
        created_at: e.createdAt,
      })),
    );
  });
});
