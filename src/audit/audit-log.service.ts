import { Injectable } from '@nestjs/common';
import { type PageRequest, toPage } from '../common/pagination/pagination.js';
import { AuditLogRepository } from './audit-log.repository.js';
import type { AuditLogPageDto, AuditLogQueryDto } from './dto/audit-entry.dto.js';

@Injectable()
export class AuditLogService {
  constructor(private readonly repo: AuditLogRepository) {}

  async page(tenantId: string, q: AuditLogQueryDto, page: PageRequest): Promise<AuditLogPageDto> {
    const [rows, total] = await this.repo.page(
      tenantId,
      { route: q.route, method: q.method, actor: q.actor, from: q.from, to: q.to },
      page,
    );
    const items = rows.map((r) => ({
      id: r.id,
      actor: r.actor,
      method: r.method,
      route: r.route,
      target: r.target,
      body: r.body,
      statusCode: r.statusCode,
      outcome: r.outcome,
      aborted: r.aborted,
      createdAt: r.createdAt.toISOString(),
    }));
    return toPage(items, total, page);
  }
}
