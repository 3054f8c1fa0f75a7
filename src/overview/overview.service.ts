import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { CommonErrors } from '../common/errors/error-catalog.js';
import type { OverviewDto } from './dto/overview.dto.js';
import { OverviewReadModel } from './overview.read-model.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest period an overview counts: its counts scan the period's rows. */
const MAX_DAYS = 31;

@Injectable()
export class OverviewService {
  constructor(
    private readonly counts: OverviewReadModel,
    private readonly clock: Clock,
  ) {}

  async overview(tenantId: string, since?: string): Promise<OverviewDto> {
    const now = this.clock.now().getTime();
    const from = since === undefined ? new Date(now - DAY_MS) : new Date(since);
    if (Number.isNaN(from.getTime()) || from.getTime() < now - MAX_DAYS * DAY_MS || from.getTime() > now)
      throw new DomainError(CommonErrors.validation_failed, `since must lie within the last ${MAX_DAYS} days`, { fields: ['since'] });
    return { since: from.toISOString(), ...(await this.counts.counts(tenantId, from)) };
  }
}
