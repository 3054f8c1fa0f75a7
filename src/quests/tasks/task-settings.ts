import type {
  AnswerTaskSettingsDto,
  GameEventTaskSettingsDto,
  OnchainTaskSettingsDto,
  PartnerTaskSettingsDto,
  QuestRefTaskSettingsDto,
  ReferralsTaskSettingsDto,
  ResourceTaskSettingsDto,
  SocialTaskSettingsDto,
  SubmissionTaskSettingsDto,
  VisitTaskSettingsDto,
} from '../dto/quest-task.dto.js';
import { hashAnswers } from './answer-check.js';
import type { AnswerSettings, QuestTaskKind, QuestTaskSettings, QuestTaskSettingsOf } from './task-kinds.js';

/** The settings bodies by kind, as the DTOs validated them. */
export interface SettingsInput {
  answer: AnswerTaskSettingsDto;
  submission: SubmissionTaskSettingsDto;
  visit: VisitTaskSettingsDto;
  social: SocialTaskSettingsDto;
  onchain: OnchainTaskSettingsDto;
  partner: PartnerTaskSettingsDto;
  game_event: GameEventTaskSettingsDto;
  referrals: ReferralsTaskSettingsDto;
  resource: ResourceTaskSettingsDto;
  quest: QuestRefTaskSettingsDto;
}

/** Why the body cannot make the kind's settings (beyond what the DTO checks), or null. */
export function settingsProblem<K extends QuestTaskKind>(
  kind: K,
  input: SettingsInput[K],
  stored: QuestTaskSettings | null,
): string | null {
  if (kind === 'answer') {
    const a = input as AnswerTaskSettingsDto;
    if (!a.answers && !stored) return 'answer.answers is required when an answer task is created';
    const rulesChanged = stored && (a.caseSensitive !== undefined || a.spaces !== undefined || a.ignoreAccents !== undefined) && !a.answers;
    if (rulesChanged) return 'answer.answers must be sent again when the normalisation rules change (only their hashes are stored)';
  }
  if (kind === 'onchain') {
    const o = input as OnchainTaskSettingsDto;
    if (o.standard === 'call' && o.equals === undefined && o.atLeast === undefined && !/returns \(bool\)$/.test(o.signature ?? ''))
      return 'onchain: a call that does not return bool needs equals or atLeast';
    if (o.standard !== 'call' && (o.signature !== undefined || o.args !== undefined || o.equals !== undefined || o.atLeast !== undefined))
      return 'onchain: signature, args, equals and atLeast are for standard call';
  }
  if (kind === 'social') {
    const s = input as SocialTaskSettingsDto;
    if ((s.discordGuildId || s.discordRoleId) && s.accountType !== 'discord') return 'social: a Discord check needs accountType discord';
    if (s.discordRoleId && !s.discordGuildId) return 'social: discordRoleId needs discordGuildId';
    if (s.xFollowsUserId && s.accountType !== 'x' && s.accountType !== 'twitter')
      return 'social: an X check needs accountType x or twitter';
  }
  return null;
}

/** The stored settings of a kind from its validated body (an answer task's answers hashed; stored ones kept when none are sent). */
export function toStoredSettings<K extends QuestTaskKind>(
  kind: K,
  input: SettingsInput[K],
  stored: QuestTaskSettings | null,
): QuestTaskSettingsOf[K] {
  switch (kind) {
    case 'answer': {
      const a = input as AnswerTaskSettingsDto;
      const old = stored as AnswerSettings | null;
      const rules = {
        caseSensitive: a.caseSensitive ?? old?.caseSensitive ?? false,
        spaces: a.spaces ?? old?.spaces ?? 'collapse',
        ignoreAccents: a.ignoreAccents ?? old?.ignoreAccents ?? false,
      };
      const hashed = a.answers ? hashAnswers(a.answers, rules) : { salt: old!.salt, answerHashes: old!.answerHashes };
      return {
        ...rules,
        ...hashed,
        maxAttempts: a.maxAttempts ?? null,
        retryAfterSeconds: a.retryAfterSeconds ?? 0,
      } as QuestTaskSettingsOf[K];
    }
    case 'submission': {
      const s = input as SubmissionTaskSettingsDto;
      return {
        format: s.format,
        maxLength: s.maxLength ?? 2000,
        autoApprove: s.autoApprove ?? false,
        instructions: s.instructions ?? '',
      } as QuestTaskSettingsOf[K];
    }
    case 'visit':
      return { url: (input as VisitTaskSettingsDto).url } as QuestTaskSettingsOf[K];
    case 'social': {
      const s = input as SocialTaskSettingsDto;
      return {
        accountType: s.accountType,
        discordGuildId: s.discordGuildId ?? null,
        discordRoleId: s.discordRoleId ?? null,
        xFollowsUserId: s.xFollowsUserId ?? null,
      } as QuestTaskSettingsOf[K];
    }
    case 'onchain': {
      const o = input as OnchainTaskSettingsDto;
      return {
        chain: o.chain,
        standard: o.standard,
        contract: o.contract,
        minBalance: o.standard === 'call' ? null : (o.minBalance ?? '1'),
        signature: o.signature ?? null,
        args: o.args ?? [],
        equals: o.equals ?? null,
        atLeast: o.atLeast ?? null,
      } as QuestTaskSettingsOf[K];
    }
    case 'partner': {
      const p = input as PartnerTaskSettingsDto;
      return { url: p.url, timeoutMs: p.timeoutMs ?? 3000 } as QuestTaskSettingsOf[K];
    }
    case 'game_event': {
      const g = input as GameEventTaskSettingsDto;
      return { eventType: g.eventType, aggregate: g.aggregate, atLeast: g.atLeast, window: g.window ?? 'period' } as QuestTaskSettingsOf[K];
    }
    case 'referrals':
      return { atLeast: (input as ReferralsTaskSettingsDto).atLeast } as QuestTaskSettingsOf[K];
    case 'resource': {
      const r = input as ResourceTaskSettingsDto;
      return { resourceTypeId: r.resourceTypeId.toLowerCase(), measure: r.measure, atLeast: r.atLeast } as QuestTaskSettingsOf[K];
    }
    case 'quest':
      return { questId: (input as QuestRefTaskSettingsDto).questId.toLowerCase() } as QuestTaskSettingsOf[K];
  }
  throw new Error(`unknown task kind ${String(kind)}`);
}

/** The settings as operators see them: an answer task's rules and answer count, never the hashes or the salt. */
export function publicSettings(kind: QuestTaskKind, settings: QuestTaskSettings): Record<string, unknown> {
  if (kind === 'answer') {
    const { answerHashes, salt: _salt, ...rest } = settings as AnswerSettings;
    return { answerCount: answerHashes.length, ...rest };
  }
  return { ...settings };
}
