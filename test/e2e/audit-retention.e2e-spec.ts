import { AuditRetention } from '../../src/audit/audit-retention.js';
import type { TenantCredentials } from '../../src/tenants/tenants.service.js';
import { createTestApp, useTestApp } from '../helpers/test-app.js';

const DAY = 24 * 3_600_000;

/** The audit log's retention pass (AUDIT_RETENTION_DAYS): entries older than the period go, batch after batch; the rest stays. */
describe('audit log retention', () => {
  const t = useTestApp({ AUDIT_RETENTION_DAYS: '90' });
  let tenant: TenantCredentials;

  beforeAll(async () => {
    tenant = await t.givenTenant();
  });

  const given = async (daysAgo: number) => {
    const [row] = await t.dataSource.query(
      `INSERT INTO admin_audit_log (tenant_id, actor, method, route, target, status_code, created_at)
       VALUES ($1, 'api-key:0123456789ab', 'POST', '/v1/admin/communities', '{}', 201, $2) RETURNING id`,
      [tenant.id, new Date(t.clock.now().getTime() - daysAgo * DAY)],
    );
    return row.id as string;
  };
  const left = async (ids: string[]) =>
    (await t.dataSource.query('SELECT id FROM admin_audit_log WHERE id = ANY($1::uuid[])', [ids])).map((r: { id: string }) => r.id).sort();

  it('deletes the entries older than the period, in batches, and keeps the others', async () => {
    const old = [await given(400), await given(200), await given(91)];
    const kept = [await given(89), await given(1), await given(0)];
    // Batches of 2: the pass goes on until a batch comes back short.
    expect(await t.app.get(AuditRetention).runOnce(2)).toEqual({ entries: 3 });
    expect(await left([...old, ...kept])).toEqual([...kept].sort());
    expect(await t.app.get(AuditRetention).runOnce(2)).toEqual({ entries: 0 });
  });

  it('keeps everything with AUDIT_RETENTION_DAYS=0', async () => {
    const other = await createTestApp({ AUDIT_RETENTION_DAYS: '0', DATABASE_URL: t.config.DATABASE_URL! });
    try {
      const ancient = await given(5000);
      expect(await other.app.get(AuditRetention).runOnce(2)).toEqual({ entries: 0 });
      expect(await left([ancient])).toEqual([ancient]);
    } finally {
      await other.close();
    }
  });
});
