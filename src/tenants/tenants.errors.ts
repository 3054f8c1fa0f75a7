import { defineErrors } from '../common/errors/error-catalog.js';

export const TenantErrors = defineErrors({
  tenant_required: { status: 400, description: 'Several tenants exist: send X-Tenant-Id (tenant id or slug).' },
  unknown_tenant: { status: 400, description: 'X-Tenant-Id names no tenant.' },
});
