import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { DomainError } from '../../common/errors/domain-error.js';
import type { GameEventsResultDto, PostGameEventsDto } from '../dto/game-event.dto.js';
import { QuestErrors } from '../quests.errors.js';
import { UsersService } from '../../users/users.service.js';
import { GameEventsRepository } from './game-events.repository.js';

/**
 * A game server's batch of players' events (`POST /v1/admin/events`): stored in one statement,
 * each once per idempotency key (a batch sent again, or two at once, adds each event once).
 * Events of users the tenant does not have are left out and named in the answer.
 */
@Injectable()
export class GameEventsService {
  constructor(
    private readonly repo: GameEventsRepository,
    private readonly users: UsersService,
    private readonly clock: Clock,
  ) {}

  async ingest(tenantId: string, dto: PostGameEventsDto): Promise<GameEventsResultDto> {
    const keys = new Set<string>();
    for (const e of dto.events) {
      if (keys.has(e.idempotencyKey))
        throw new DomainError(
          QuestErrors.invalid_game_events,
          `idempotencyKey ${e.idempotencyKey.slice(0, 64)} appears twice in the batch`,
        );
      keys.add(e.idempotencyKey);
    }
    const now = this.clock.now();
    const events = dto.events.map((e) => ({
      userId: e.userId.toLowerCase(),
      type: e.type,
      value: e.value ?? 1,
      occurredAt: e.occurredAt ?? now,
      idempotencyKey: e.idempotencyKey,
    }));
    const users = await this.users.existing(tenantId, [...new Set(events.map((e) => e.userId))]);
    const ofUsers = events.filter((e) => users.has(e.userId));
    const stored = await this.repo.insertMany(tenantId, ofUsers);
    return {
      accepted: stored.size,
      duplicates: ofUsers.length - stored.size,
      unknownUsers: events.filter((e) => !users.has(e.userId)).map((e) => e.idempotencyKey),
    };
  }
}
