import { Injectable } from '@nestjs/common';
import { SocialsService } from '../../socials/socials.service.js';
import { UsersService } from '../../users/users.service.js';
import { WalletsService } from '../../wallets/wallets.service.js';
import { QuestsRepository } from '../quests.repository.js';
import type { QuestContext } from './quest-context.js';

export interface Availability {
  open: boolean;
  reason: string | null;
  retryAt: Date | null;
  /** Completions of the player over every period, and the last one. */
  completions: number;
  lastCompletedAt: Date | null;
}

const DAY_MS = 86_400_000;

/**
 * Whether a player may claim a quest now, before any task is checked: it has tasks, the
 * availability window, the completion limit, the cooldown since the last completion, the
 * prerequisite quests, and its gates (account age, an EVM wallet, linked socials).
 */
@Injectable()
export class QuestAvailability {
  constructor(
    private readonly quests: QuestsRepository,
    private readonly users: UsersService,
    private readonly wallets: WalletsService,
    private readonly socials: SocialsService,
  ) {}

  async check(tenantId: string, userId: string, ctx: QuestContext): Promise<Availability> {
    const { quest, now } = ctx;
    const stats = await this.quests.completionStats(tenantId, quest.id, userId);
    const result = (reason: string | null, retryAt: Date | null = null): Availability => ({
      open: reason === null,
      reason,
      retryAt,
      completions: stats.count,
      lastCompletedAt: stats.last,
    });
    if (ctx.tasks.length === 0) return result('This quest is completed by the game, not claimed');
    if (quest.availableFrom && now < quest.availableFrom) return result('This quest is not open yet', quest.availableFrom);
    if (quest.availableUntil && now >= quest.availableUntil) return result('This quest is over');
    if (quest.maxCompletions !== null && stats.count >= quest.maxCompletions)
      return result(`This quest can be completed ${quest.maxCompletions} time${quest.maxCompletions === 1 ? '' : 's'}`);
    if (quest.cooldownSeconds && stats.last) {
      const until = new Date(stats.last.getTime() + quest.cooldownSeconds * 1000);
      if (now < until) return result('This quest is cooling down', until);
    }
    if (quest.prerequisites.length > 0) {
      const done = await this.quests.completedEver(tenantId, userId, quest.prerequisites);
      if (quest.prerequisites.some((id) => !done.has(id))) return result('Complete the quests this one builds on first');
    }
    const gates = quest.gates ?? {};
    if (gates.minAccountAgeDays) {
      const user = await this.users.findById(tenantId, userId);
      const oldEnough = user ? new Date(user.createdAt.getTime() + gates.minAccountAgeDays * DAY_MS) : null;
      if (!oldEnough || now < oldEnough) return result(`Your account must be ${gates.minAccountAgeDays} days old`, oldEnough);
    }
    if (gates.requireWallet && !(await this.wallets.findEvmWallet(tenantId, userId)))
      return result('Sign in with an Ethereum wallet (SIWE) first');
    if (gates.requireSocials?.length) {
      const linked = new Set((await this.socials.listSocials(tenantId, userId)).map((s) => s.accountType));
      const absent = gates.requireSocials.filter((t) => !linked.has(t));
      if (absent.length > 0) return result(`Link your ${absent.join(', ')} account${absent.length === 1 ? '' : 's'} first`);
    }
    return result(null);
  }
}
