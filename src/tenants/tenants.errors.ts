import { defineErrors } from '../common/errors/error-catalog.js';

export const TenantErrors = defineErrors({
  tenant_required: {
    status: 400,
    description:
      'Nothing names the tenant of this request: several tenants exist, and there is no session token, no X-Tenant-Id, no domain of a tenant in the host name and no DEFAULT_TENANT.',
  },
  unknown_tenant: { status: 400, description: 'X-Tenant-Id (or the tenant in the path) names no tenant.' },
  invalid_domain: {
    status: 400,
    description: 'A domain is not a host name (letters, digits, "-" and "."; an IDN is accepted); `detail` says which and why.',
  },
  invalid_tenant_settings: {
    status: 400,
    description:
      'A tenant setting has a value it cannot take (e.g. a login rate limit that is not a positive whole number); `detail` says which.',
  },
  domain_taken: { status: 409, code: 13001, description: 'A domain is already assigned to another tenant; nothing changed.' },
});
