/** What a task asks of the player; each kind has a verifier (src/quests/tasks/verifiers/). */
export const QUEST_TASK_KINDS = [
  'answer',
  'submission',
  'visit',
  'social',
  'onchain',
  'partner',
  'game_event',
  'referrals',
  'resource',
  'quest',
] as const;
export type QuestTaskKind = (typeof QUEST_TASK_KINDS)[number];

/** The kinds a player acts on with a body of their own (an answer, a submission); the others are checked by a claim. */
export const PLAYER_INPUT_KINDS: ReadonlySet<QuestTaskKind> = new Set(['answer', 'submission']);

export type AnswerSpaces = 'exact' | 'trim' | 'collapse' | 'remove';

/** Stored settings of each kind (an answer task's answers as salted hashes, never as text). */
export interface AnswerSettings {
  answerHashes: string[];
  salt: string;
  caseSensitive: boolean;
  spaces: AnswerSpaces;
  ignoreAccents: boolean;
  maxAttempts: number | null;
  retryAfterSeconds: number;
}
export interface SubmissionSettings {
  format: 'text' | 'url';
  maxLength: number;
  autoApprove: boolean;
  instructions: string;
}
export interface VisitSettings {
  url: string;
}
export interface SocialSettings {
  accountType: string;
  discordGuildId: string | null;
  discordRoleId: string | null;
  xFollowsUserId: string | null;
}
export interface OnchainSettings {
  chain: string;
  standard: 'erc20' | 'erc721' | 'call';
  contract: string;
  /** erc20/erc721: at least this balance, in the token's base units (decimal digits). */
  minBalance: string | null;
  /** call: `function name(types) view returns (type)` and its arguments (`{wallet}`: the player's address). */
  signature: string | null;
  args: string[];
  /** call: the result must equal this (its text: a number, `true`/`false`, an address) or be at least `atLeast`. */
  equals: string | null;
  atLeast: string | null;
}
export interface PartnerSettings {
  url: string;
  timeoutMs: number;
}
export interface GameEventSettings {
  eventType: string;
  aggregate: 'count' | 'sum';
  atLeast: number;
  /** `period`: events of the quest's current period (all time for a `once` quest); `all`: every event. */
  window: 'period' | 'all';
}
export interface ReferralsSettings {
  atLeast: number;
}
export interface ResourceSettings {
  resourceTypeId: string;
  measure: 'balance' | 'earned';
  atLeast: number;
}
export interface QuestRefSettings {
  questId: string;
}

export interface QuestTaskSettingsOf {
  answer: AnswerSettings;
  submission: SubmissionSettings;
  visit: VisitSettings;
  social: SocialSettings;
  onchain: OnchainSettings;
  partner: PartnerSettings;
  game_event: GameEventSettings;
  referrals: ReferralsSettings;
  resource: ResourceSettings;
  quest: QuestRefSettings;
}
export type QuestTaskSettings = QuestTaskSettingsOf[QuestTaskKind];

/** The body property that carries a kind's settings (`gameEvent` for `game_event`). */
export const SETTINGS_PROPERTY: Record<QuestTaskKind, string> = {
  answer: 'answer',
  submission: 'submission',
  visit: 'visit',
  social: 'social',
  onchain: 'onchain',
  partner: 'partner',
  game_event: 'gameEvent',
  referrals: 'referrals',
  resource: 'resource',
  quest: 'quest',
};
