import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { API_KEY_ERRORS, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { SetTenantDomainsDto, TenantDto } from './dto/tenant.dto.js';
import { TenantErrors } from './tenants.errors.js';
import { TenantsService } from './tenants.service.js';

const adminErrors = [...INPUT_ERRORS, ...API_KEY_ERRORS];

@ApiTags('Management')
@Controller('admin/tenant')
export class TenantsAdminController {
  constructor(private readonly tenants: TenantsService) {}

  @Get()
  @ApiKeyAuth()
  @ApiOperation({ summary: 'The tenant of the API key', description: 'Its id, slug, name and domains.' })
  @ApiOkResponse({ type: TenantDto })
  @ApiErrors(...adminErrors)
  getAdminTenant(@TenantId() tenantId: string): Promise<TenantDto> {
    return this.tenants.view(tenantId);
  }

  @Put('domains')
  @ApiKeyAuth()
  @ApiOperation({
    summary: "Replace the tenant's domains",
    description:
      'A request without a session token or `X-Tenant-Id` whose host name is one of these runs in this tenant, so a client ' +
      "pointed at the tenant's own domain needs no tenant header. A domain belongs to one tenant at most. Other instances " +
      'of the service see the change within 5 seconds.',
  })
  @ApiOkResponse({ type: TenantDto })
  @ApiErrors(...adminErrors, TenantErrors.invalid_domain, TenantErrors.domain_taken)
  setTenantDomains(@TenantId() tenantId: string, @Body() dto: SetTenantDomainsDto): Promise<TenantDto> {
    return this.tenants.changeDomains(tenantId, { set: dto.domains });
  }
}
