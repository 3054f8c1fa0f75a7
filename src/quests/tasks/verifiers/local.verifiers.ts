import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { LedgerService } from '../../../resources/ledger.service.js';
import { ReferralsService } from '../../../users/referrals.service.js';
import { GameEventsRepository } from '../../game-events/game-events.repository.js';
import { QuestsRepository } from '../../quests.repository.js';
import type { GameEventSettings, QuestRefSettings, ReferralsSettings, ResourceSettings } from '../task-kinds.js';
import { done, missing, TaskVerifier, type Verdict, type VerifyInput } from './verifier.js';

const counted = (current: number, target: number, why: string): Verdict =>
  current >= target ? done({ current, target }) : missing(why, { current, target });

/** `game_event`: the player's events of a type, counted or summed, in the quest's period or ever. */
@Injectable()
export class GameEventVerifier extends TaskVerifier {
  readonly kind = 'game_event' as const;

  constructor(private readonly events: GameEventsRepository) {
    super();
  }

  async verify({ tenantId, userId, task, period }: VerifyInput): Promise<Verdict> {
    const s = task.settings as GameEventSettings;
    const [from, until] = s.window === 'period' ? [period.start, period.end] : [null, null];
    const n = await this.events.aggregate(tenantId, userId, s.eventType, s.aggregate, from, until);
    return counted(n, s.atLeast, s.aggregate === 'count' ? `${s.atLeast - n} more ${s.eventType} to go` : `${s.atLeast - n} more to go`);
  }
}

/** `referrals`: members of the community the player referred. */
@Injectable()
export class ReferralsVerifier extends TaskVerifier {
  readonly kind = 'referrals' as const;

  constructor(private readonly referrals: ReferralsService) {
    super();
  }

  async verify({ tenantId, userId, quest, task }: VerifyInput): Promise<Verdict> {
    const s = task.settings as ReferralsSettings;
    const n = await this.referrals.countReferred(tenantId, userId, quest.communityId);
    return counted(n, s.atLeast, `Refer ${s.atLeast - n} more member${s.atLeast - n === 1 ? '' : 's'}`);
  }
}

/** `resource`: the player's balance or earned total of a resource type. */
@Injectable()
export class ResourceVerifier extends TaskVerifier {
  readonly kind = 'resource' as const;

  constructor(
    private readonly ledger: LedgerService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    super();
  }

  async verify({ tenantId, userId, task }: VerifyInput): Promise<Verdict> {
    const s = task.settings as ResourceSettings;
    const b = await this.ledger.getBalance(this.dataSource.manager, tenantId, userId, s.resourceTypeId);
    const n = s.measure === 'balance' ? b.balance : b.earned;
    return counted(n, s.atLeast, `${s.atLeast - n} more to go`);
  }
}

/** `quest`: another quest completed (in any period). */
@Injectable()
export class QuestRefVerifier extends TaskVerifier {
  readonly kind = 'quest' as const;

  constructor(private readonly quests: QuestsRepository) {
    super();
  }

  async verify({ tenantId, userId, task }: VerifyInput): Promise<Verdict> {
    const s = task.settings as QuestRefSettings;
    return (await this.quests.completedEver(tenantId, userId, [s.questId])).has(s.questId)
      ? done()
      : missing('Complete the quest this one builds on first');
  }
}
