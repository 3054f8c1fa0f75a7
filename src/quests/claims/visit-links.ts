import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SecretsService } from '../../crypto/secrets.service.js';

/** How long a visit link works. */
const VISIT_LINK_SECONDS = 24 * 3600;
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const LINK = new RegExp(`^(${UUID})\\.(${UUID})\\.(${UUID})\\.(${UUID})\\.(\\d{1,12})\\.([A-Za-z0-9_-]{43})$`);

export interface VisitClaim {
  tenantId: string;
  questId: string;
  taskId: string;
  userId: string;
}

/**
 * The links of `visit` tasks: `<tenant>.<quest>.<task>.<user>.<expiry>.<HMAC>`, signed with a key
 * every instance shares (`quest_visit_key`), valid 24 h. The link is the credential (a browser
 * follows it without the session token); it names one player and one task, and does nothing but
 * record that the player opened it.
 */
@Injectable()
export class VisitLinks {
  constructor(private readonly secrets: SecretsService) {}

  async issue(tenantId: string, questId: string, taskId: string, userId: string, now: Date): Promise<string> {
    const body = `${tenantId}.${questId}.${taskId}.${userId}.${Math.floor(now.getTime() / 1000) + VISIT_LINK_SECONDS}`;
    return `${body}.${await this.sign(body)}`;
  }

  /** What the link names, or null when it is not one this service issued or it expired. */
  async read(link: string, now: Date): Promise<VisitClaim | null> {
    const m = LINK.exec(link);
    if (!m) return null;
    const [, tenantId, questId, taskId, userId, exp, sig] = m;
    const body = `${tenantId}.${questId}.${taskId}.${userId}.${exp}`;
    const expected = Buffer.from(await this.sign(body));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (Number(exp) * 1000 <= now.getTime()) return null;
    return { tenantId, questId, taskId, userId };
  }

  private async sign(body: string): Promise<string> {
    return createHmac('sha256', await this.secrets.named('quest_visit_key'))
      .update(body)
      .digest('base64url');
  }
}
