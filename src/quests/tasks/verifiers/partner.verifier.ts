import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type https from 'node:https';
import { AppConfig } from '../../../config/app-config.js';
import { EncryptionService } from '../../../crypto/encryption.service.js';
import { guardedAgents } from '../../../integrations/url-guard.js';
import { signatureHeader, WEBHOOK_HEADERS } from '../../../integrations/webhook-signature.js';
import { SocialsService } from '../../../socials/socials.service.js';
import { UsersService } from '../../../users/users.service.js';
import { WalletsService } from '../../../wallets/wallets.service.js';
import { httpCall, jsonOf, NoAnswer } from '../http-call.js';
import type { PartnerSettings } from '../task-kinds.js';
import { done, missing, TaskVerifier, unavailable, type Verdict, type VerifyInput } from './verifier.js';

/** The context a partner task's secret is encrypted under. */
export const partnerSecretContext = (taskId: string) => `quest-task:${taskId}:partner-secret`;

/** The type header of a partner verification request, beside the webhook headers it shares. */
export const PARTNER_EVENT_TYPE = 'quest.task_verification';

/**
 * `partner`: asks the operator's own endpoint. A POST with the player's ids, handle, linked socials
 * and EVM wallets, signed as webhooks are (`X-CGS-Signature` over `<timestamp>.<body>` with the
 * task's secret, `X-CGS-Timestamp`, `X-CGS-Event-Type: quest.task_verification`); 2xx means done,
 * 4xx not yet (a JSON `message` of the answer, at most 200 characters, is shown to the player),
 * anything else or no answer within the task's timeout is "try again". Its URL must be public
 * (the webhooks' guard, checked at every connection); redirects are not followed; at most 16 KiB
 * of the answer is read.
 */
@Injectable()
export class PartnerVerifier extends TaskVerifier implements OnModuleDestroy {
  readonly kind = 'partner' as const;
  override readonly external = true;
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(
    private readonly users: UsersService,
    private readonly socials: SocialsService,
    private readonly wallets: WalletsService,
    private readonly encryption: EncryptionService,
    config: AppConfig,
  ) {
    super();
    this.agents = guardedAgents(config.WEBHOOK_ALLOW_PRIVATE_URLS, { keepAlive: true, maxSockets: 16 });
  }

  onModuleDestroy(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  async verify({ tenantId, userId, quest, task, period }: VerifyInput): Promise<Verdict> {
    const s = task.settings as PartnerSettings;
    if (!task.secretEnc) return unavailable('This task is not set up');
    const [user, socials, wallets, secret] = await Promise.all([
      this.users.findById(tenantId, userId),
      this.socials.listSocials(tenantId, userId),
      this.wallets.listUserWallets(tenantId, userId),
      this.encryption.decrypt(task.secretEnc, partnerSecretContext(task.id)),
    ]);
    const body = JSON.stringify({
      id: randomUUID(),
      type: PARTNER_EVENT_TYPE,
      tenantId,
      questId: quest.id,
      taskId: task.id,
      communityId: quest.communityId,
      periodKey: period.key,
      user: { id: userId, handle: user?.handle ?? null },
      socials: socials.map((x) => ({ accountType: x.accountType, subjectId: x.subjectId, handle: x.handle })),
      wallets: wallets.map((w) => ({ chain: w.chain, address: w.address })),
    });
    const timestamp = Math.floor(Date.now() / 1000);
    let answer;
    try {
      answer = await httpCall(s.url, {
        method: 'POST',
        body,
        headers: {
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: signatureHeader([secret], timestamp, body),
          [WEBHOOK_HEADERS.eventType]: PARTNER_EVENT_TYPE,
        },
        timeoutMs: s.timeoutMs,
        maxBytes: 16 * 1024,
        agents: this.agents,
      });
    } catch (err) {
      if (err instanceof NoAnswer) return unavailable('The partner did not answer; try again in a moment');
      throw err;
    }
    if (answer.status >= 200 && answer.status < 300) return done();
    if (answer.status >= 400 && answer.status < 500) {
      const said = (jsonOf(answer) as { message?: unknown } | undefined)?.message;
      return missing(typeof said === 'string' && said.trim() !== '' ? said.slice(0, 200) : 'The partner says this is not done yet');
    }
    return unavailable(`The partner answered ${answer.status}; try again in a moment`);
  }
}
