import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CacheFactory } from '../common/cache/cache-factory.js';
import type { ReadCache } from '../common/cache/read-cache.js';
import { Clock } from '../common/clock/clock.js';
import { DomainError } from '../common/errors/domain-error.js';
import { idOf } from '../common/validation/uuid.js';
import { ResourceErrors } from '../resources/resources.errors.js';
import type { SeasonBoardRef } from '../resources/season-boards.service.js';
import { SeasonsRepository } from './seasons.repository.js';

type RefQuery = { tenantId: string; resourceTypeId: string; ref: string };

/** The seasons module's read caches, declared in one place, with the drops its writes make. */
@Injectable()
export class SeasonsCaches {
  /** `?season=` references, per tenant: read on every season board request; see `SeasonBoardRefs`. */
  readonly refs: ReadCache<RefQuery, SeasonBoardRef>;

  constructor(
    private readonly repo: SeasonsRepository,
    private readonly clock: Clock,
    caches: CacheFactory,
  ) {
    this.refs = caches.create<RefQuery, SeasonBoardRef>({
      name: 'seasons by reference',
      load: ({ tenantId, resourceTypeId, ref }) => this.loadBoardOf(tenantId, resourceTypeId, ref),
    });
  }

  /** A season's standings were frozen in the transaction of `em`: its references are dropped when it commits. */
  frozenIn(em: EntityManager, tenantId: string): void {
    this.refs.dropAfterCommit(em, tenantId);
  }

  private async loadBoardOf(tenantId: string, resourceTypeId: string, ref: string): Promise<SeasonBoardRef> {
    const id = idOf(ref);
    const season =
      ref === 'current'
        ? await this.repo.current(tenantId, resourceTypeId, this.clock.now())
        : id
          ? await this.repo.findById(tenantId, id)
          : null;
    if (!season || season.resourceTypeId !== resourceTypeId)
      throw new DomainError(
        ResourceErrors.season_not_found,
        ref === 'current' ? 'No season of this resource is running now' : `No season ${ref.slice(0, 64)} of this resource`,
      );
    return { id: season.id, ranked: season.frozenAt ? season.ranked : null };
  }
}
