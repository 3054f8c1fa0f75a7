import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { API_KEY_ERRORS, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { pageRequest } from '../common/pagination/pagination.js';
import { AuditLogService } from './audit-log.service.js';
import { AuditLogPageDto, AuditLogQueryDto } from './dto/audit-entry.dto.js';

@ApiTags('Management')
@Controller('admin/audit-log')
export class AuditAdminController {
  constructor(private readonly audit: AuditLogService) {}

  @Get()
  @ApiKeyAuth()
  @ApiOperation({
    summary: 'The audit log of management writes (extension)',
    description:
      'Every POST, PUT, PATCH and DELETE under `/v1/admin` that passed the API key check, successful or not, newest first: ' +
      'the caller, the route template and its parameters, the body with secrets redacted, the status code and the id of the ' +
      'resource the response named. Entries are written just after the response, so one may take a moment to appear. Paginated.',
  })
  @ApiOkResponse({ type: AuditLogPageDto })
  @ApiErrors(...INPUT_ERRORS, ...API_KEY_ERRORS)
  listAdminAuditLog(@TenantId() tenantId: string, @Query() q: AuditLogQueryDto): Promise<AuditLogPageDto> {
    return this.audit.page(tenantId, q, pageRequest(q));
  }
}
