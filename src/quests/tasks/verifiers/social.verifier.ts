import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { SocialsService } from '../../../socials/socials.service.js';
import { QuestPlatformsService } from '../../platforms/quest-platforms.service.js';
import { httpCall, jsonOf, NoAnswer } from '../http-call.js';
import type { SocialSettings } from '../task-kinds.js';
import { done, missing, TaskVerifier, unavailable, type Verdict, type VerifyInput } from './verifier.js';

/** Pages of an account's follows read to find one (X answers 1,000 per page). */
const X_PAGES = 5;

/**
 * `social`: a linked social of the account type; with a Discord guild, the linked account is a
 * member of it (and holds the role), asked with the community's bot token (`GET
 * /guilds/{guild.id}/members/{user.id}`, Discord's REST API v10); with an X account to follow,
 * the linked account follows it (`GET /2/users/{id}/following`, X API v2, the community's bearer
 * token). The platforms' base URLs are settings (DISCORD_API_BASE_URL, X_API_BASE_URL).
 */
@Injectable()
export class SocialVerifier extends TaskVerifier {
  readonly kind = 'social' as const;
  override readonly external = true;

  constructor(
    private readonly socials: SocialsService,
    private readonly platforms: QuestPlatformsService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async verify({ tenantId, userId, quest, task }: VerifyInput): Promise<Verdict> {
    const s = task.settings as SocialSettings;
    const linked = await this.socials.listSocialsOfType(tenantId, userId, s.accountType);
    if (linked.length === 0) return missing(`Link a ${s.accountType} account first`);
    const subjects = linked.map((l) => l.subjectId);
    if (s.discordGuildId) {
      const token = await this.platforms.token(tenantId, quest.communityId, 'discord');
      if (!token) return unavailable('This community has not set up its Discord check');
      return this.discord(token, s.discordGuildId, s.discordRoleId, subjects);
    }
    if (s.xFollowsUserId) {
      const token = await this.platforms.token(tenantId, quest.communityId, 'x');
      if (!token) return unavailable('This community has not set up its X check');
      return this.x(token, s.xFollowsUserId, subjects);
    }
    return done();
  }

  private async discord(token: string, guildId: string, roleId: string | null, subjects: string[]): Promise<Verdict> {
    for (const subject of subjects) {
      const answer = await this.call(
        `${this.config.DISCORD_API_BASE_URL}/guilds/${guildId}/members/${encodeURIComponent(subject)}`,
        `Bot ${token}`,
      );
      if (answer instanceof NoAnswer) return unavailable('Discord did not answer; try again in a moment');
      if (answer.status === 404) continue;
      if (answer.status !== 200) return unavailable(`Discord answered ${answer.status}; try again in a moment`);
      const roles = (jsonOf(answer) as { roles?: unknown } | undefined)?.roles;
      if (!roleId) return done();
      if (Array.isArray(roles) && roles.includes(roleId)) return done();
      return missing('Your Discord account does not have the role this quest asks for');
    }
    return missing('Join the Discord server with your linked account first');
  }

  private async x(token: string, follows: string, subjects: string[]): Promise<Verdict> {
    for (const subject of subjects) {
      let next: string | undefined;
      for (let page = 0; page < X_PAGES; page++) {
        const query = `max_results=1000${next ? `&pagination_token=${encodeURIComponent(next)}` : ''}`;
        const answer = await this.call(
          `${this.config.X_API_BASE_URL}/2/users/${encodeURIComponent(subject)}/following?${query}`,
          `Bearer ${token}`,
        );
        if (answer instanceof NoAnswer) return unavailable('X did not answer; try again in a moment');
        if (answer.status === 429) return unavailable('X is limiting requests; try again later');
        if (answer.status !== 200) return unavailable(`X answered ${answer.status}; try again in a moment`);
        const body = jsonOf(answer) as { data?: { id?: unknown }[]; meta?: { next_token?: unknown } } | undefined;
        if (body?.data?.some((u) => u.id === follows)) return done();
        next = typeof body?.meta?.next_token === 'string' ? body.meta.next_token : undefined;
        if (!next) break;
      }
    }
    return missing('Follow the account with your linked X account first');
  }

  private async call(url: string, authorization: string) {
    try {
      return await httpCall(url, {
        headers: { authorization, accept: 'application/json' },
        timeoutMs: this.config.QUEST_VERIFIER_TIMEOUT_MS,
        maxBytes: 1_000_000,
      });
    } catch (err) {
      if (err instanceof NoAnswer) return err;
      throw err;
    }
  }
}
