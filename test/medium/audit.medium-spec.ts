import { AuditModule } from '../../src/audit/audit.module.js';
import { jest } from '@jest/globals';
import type { Logger } from '@nestjs/common';
import { AuditLogRepository, type NewAuditEntry } from '../../src/audit/audit-log.repository.js';
import { AuditLogWriter } from '../../src/audit/audit-log.writer.js';
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

  it('a batch with entries PostgreSQL refuses keeps every other entry of it; the refused ones are logged with their request ids', async () => {
    const writer = t.get(AuditLogWriter);
    const errors = jest.spyOn((writer as unknown as { logger: Logger }).logger, 'error');
    const at = new Date('2026-11-28T05:00:00.000Z').getTime();
    const entry = (i: number, fields: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
      tenantId,
      actor: 'api-key:0123456789ab',
      method: 'PATCH',
      route: '/v1/admin/communities/:communityId',
      target: { communityId: `c-${i}` },
      body: { name: `n-${i}` },
      statusCode: 200,
      outcome: null,
      aborted: false,
      createdAt: new Date(at + i),
      ...fields,
    });
    // Straight to the writer, past the middleware's sanitizing: a NUL in jsonb and in varchar, a
    // status beyond smallint, among good entries of the same batch.
    const bad = new Map<number, Partial<NewAuditEntry>>([
      [2, { target: { communityId: 'a\u0000b' } }],
      [5, { outcome: 'x\u0000y' }],
      [9, { statusCode: 70_000 }],
    ]);
    for (let i = 0; i < 12; i++) writer.record({ ...entry(i, bad.get(i)), requestId: `req-${i}` });
    await writer.flush();

    expect(writer.pending).toBe(0);
    const rows = await t.dataSource.query<{ target: Record<string, string> }[]>(
      `SELECT target FROM admin_audit_log WHERE tenant_id = $1 AND created_at >= $2 ORDER BY created_at`,
      [tenantId, new Date(at)],
    );
    const good = [...Array(12).keys()].filter((i) => !bad.has(i));
    expect(rows.map((r) => r.target.communityId)).toEqual(good.map((i) => `c-${i}`));
    const logged = JSON.stringify(errors.mock.calls);
    for (const i of bad.keys()) expect(logged).toContain(`req-${i}`);
    for (const i of good) expect(logged).not.toContain(`"req-${i}"`);
  });
});
