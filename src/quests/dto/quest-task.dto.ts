import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEthereumAddress,
  IsIn,
  IsInt,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { HttpUrl, IfPresent, IsUuid, NotBlank, OptionalInt, OptionalText, RequiredText } from '../../common/validation/decorators.js';
import { MAX_ANSWER_LENGTH } from '../tasks/answer-check.js';
import { QUEST_TASK_KINDS, type QuestTaskKind } from '../tasks/task-kinds.js';

const SNOWFLAKE = /^\d{5,25}$/;
const DECIMAL = /^\d{1,78}$/;
const SPACES = ['exact', 'trim', 'collapse', 'remove'] as const;

/** `answer`: a quiz answer or a code word. The answers are stored hashed: never shown again. */
export class AnswerTaskSettingsDto {
  /** The accepted answers (1-20, each 1-200 characters), compared after normalisation. Required when the task is created; absent on an update, the stored ones stay. Write-only. */
  @ApiPropertyOptional({ type: [String], example: ['Treasure Island'], writeOnly: true })
  @IfPresent()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  answers?: string[];

  /** White space: `exact`, `trim` the ends, `collapse` runs to one space (default), `remove` all. */
  @ApiPropertyOptional({ enum: SPACES })
  @IfPresent()
  @IsIn(SPACES)
  spaces?: (typeof SPACES)[number];

  /** Whether case matters (default false). */
  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  caseSensitive?: boolean;

  /** Whether accents are ignored (`café` = `cafe`; default false). Unicode compatibility forms always are (NFKC). */
  @ApiPropertyOptional()
  @IfPresent()
  @IsBoolean()
  ignoreAccents?: boolean;

  /** Wrong answers allowed per period before the task is closed to the player (absent: no limit). */
  @OptionalInt({ min: 1, max: 100 })
  maxAttempts?: number;

  /** How long a player waits after a wrong answer, in seconds (default 0). */
  @OptionalInt({ min: 0, max: 86400 })
  retryAfterSeconds?: number;
}

/** `submission`: a text or a URL from the player, reviewed by an operator unless `autoApprove`. */
export class SubmissionTaskSettingsDto {
  @ApiProperty({ enum: ['text', 'url'], example: 'url' })
  @IsIn(['text', 'url'])
  format: 'text' | 'url';

  /** What the player is asked to submit. */
  @ApiPropertyOptional({ example: 'Link your tweet about the launch' })
  @OptionalText({ max: 1000 })
  instructions?: string;

  /** Longest submission, in characters (default and most: 2000). */
  @OptionalInt({ min: 1, max: 2000 })
  maxLength?: number;

  /** Approve every submission at once (default false: an operator reviews it). */
  @IfPresent()
  @IsBoolean()
  autoApprove?: boolean;
}

/** `visit`: the player opens a link; the service records the visit through a redirect it serves. */
export class VisitTaskSettingsDto {
  @ApiProperty({ example: 'https://example.com/launch' })
  @HttpUrl()
  url: string;
}

/**
 * `social`: a linked social of `accountType`; optionally checked against the platform: Discord
 * membership of a guild (and a role), X following an account. The community's platform
 * credential (`PUT /v1/admin/communities/{communityId}/quest-platforms/{platform}`) is used.
 */
export class SocialTaskSettingsDto {
  @ApiProperty({ example: 'discord' })
  @RequiredText({ max: 32 })
  @Matches(/^[a-z][a-z0-9_-]*$/)
  accountType: string;

  /** Discord: the player is a member of this guild. */
  @ApiPropertyOptional({ example: '81384788765712384' })
  @IfPresent()
  @IsString()
  @Matches(SNOWFLAKE)
  discordGuildId?: string;

  /** Discord: and holds this role in it. */
  @ApiPropertyOptional({ example: '175928847299117063' })
  @IfPresent()
  @IsString()
  @Matches(SNOWFLAKE)
  discordRoleId?: string;

  /** X: the player follows the account with this user id. */
  @ApiPropertyOptional({ example: '2244994945' })
  @IfPresent()
  @IsString()
  @Matches(/^\d{1,25}$/)
  xFollowsUserId?: string;
}

/**
 * `onchain`: the player's EVM wallet (a SIWE login) holds at least `minBalance` of an ERC-20 or an
 * ERC-721 of `contract`, or a read-only `call` of it returns what the task asks.
 */
export class OnchainTaskSettingsDto {
  /** A chain of the QUEST_CHAINS (or BLOCKCHAINS) setting, by name. */
  @ApiProperty({ example: 'base' })
  @RequiredText({ max: 32 })
  @Matches(/^[a-z0-9][a-z0-9_-]*$/)
  chain: string;

  @ApiProperty({ enum: ['erc20', 'erc721', 'call'], example: 'erc20' })
  @IsIn(['erc20', 'erc721', 'call'])
  standard: 'erc20' | 'erc721' | 'call';

  @ApiProperty({ example: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
  @IsEthereumAddress()
  contract: string;

  /** erc20 / erc721: the least balance, in base units (decimal digits; default 1). */
  @ApiPropertyOptional({ example: '1000000000000000000' })
  @IfPresent()
  @IsString()
  @Matches(DECIMAL)
  minBalance?: string;

  /** call: a view function in human-readable ABI form, one return value. */
  @ApiPropertyOptional({ example: 'function isMember(address) view returns (bool)' })
  @ValidateIf((o: OnchainTaskSettingsDto) => o.standard === 'call')
  @IsString()
  @Length(10, 300)
  @Matches(/^function [A-Za-z_][A-Za-z0-9_]*\([^()]*\) (view|pure) returns \([^(),]+\)$/, {
    message: 'signature must be "function name(types) view returns (type)"',
  })
  signature?: string;

  /** call: its arguments as text; `{wallet}` stands for the player's address. */
  @ApiPropertyOptional({ type: [String], example: ['{wallet}'] })
  @IfPresent()
  @IsArray()
  @ArrayMaxSize(8)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  args?: string[];

  /** call: the result must equal this (`true`, `false`, a number, an address). */
  @ApiPropertyOptional({ example: 'true' })
  @OptionalText({ min: 1, max: 100 })
  equals?: string;

  /** call: the result, a number, must be at least this. */
  @ApiPropertyOptional({ example: '1' })
  @IfPresent()
  @IsString()
  @Matches(DECIMAL)
  atLeast?: string;
}

/**
 * `partner`: the service POSTs the player's ids and linked accounts to the operator's URL, signed
 * as webhooks are (`X-CGS-Signature` with the task's secret); 200 means done, 4xx not yet.
 */
export class PartnerTaskSettingsDto {
  @ApiProperty({ example: 'https://partner.example.com/quests/verify' })
  @HttpUrl()
  url: string;

  /** The partner's time to answer, in milliseconds (default 3000). */
  @OptionalInt({ min: 100, max: 10000 })
  timeoutMs?: number;
}

/** `game_event`: the player's events of a type posted by the game server (`POST /v1/admin/events`), counted or summed. */
export class GameEventTaskSettingsDto {
  @ApiProperty({ example: 'match_won' })
  @RequiredText({ max: 64 })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/)
  eventType: string;

  @ApiProperty({ enum: ['count', 'sum'], example: 'count' })
  @IsIn(['count', 'sum'])
  aggregate: 'count' | 'sum';

  @ApiProperty({ minimum: 1, example: 3 })
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  atLeast: number;

  /** `period` (default): events in the quest's current period (all time for a `once` quest); `all`: every event. */
  @ApiPropertyOptional({ enum: ['period', 'all'] })
  @IfPresent()
  @IsIn(['period', 'all'])
  window?: 'period' | 'all';
}

/** `referrals`: the player referred at least this many members of the community. */
export class ReferralsTaskSettingsDto {
  @ApiProperty({ minimum: 1, example: 3 })
  @IsInt()
  @Min(1)
  @Max(100_000)
  atLeast: number;
}

/** `resource`: the player's balance or earned total of a resource type of the community is at least this. */
export class ResourceTaskSettingsDto {
  @ApiProperty({ format: 'uuid', example: '0b8f6f57-5a53-4d4c-9d3e-6f1c1b2f7a10' })
  @IsUuid()
  resourceTypeId: string;

  @ApiProperty({ enum: ['balance', 'earned'], example: 'earned' })
  @IsIn(['balance', 'earned'])
  measure: 'balance' | 'earned';

  @ApiProperty({ minimum: 1, example: 500 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  atLeast: number;
}

/** `quest`: the player completed another quest of the community (in any period). */
export class QuestRefTaskSettingsDto {
  @ApiProperty({ format: 'uuid', example: '6c1f3e0a-2b7e-4a55-9a0c-2f9d1a4e5b11' })
  @IsUuid()
  questId: string;
}

const settingsOf = (kind: QuestTaskKind) => (o: { kind?: string }) => o.kind === kind;

/** The settings of one kind, under the property of that kind; the other kinds' properties must be absent. */
class TaskSettingsFields {
  @ApiPropertyOptional({ type: AnswerTaskSettingsDto })
  @ValidateIf(settingsOf('answer'))
  @IsDefined({ message: 'answer is required for an answer task' })
  @ValidateNested()
  @Type(() => AnswerTaskSettingsDto)
  answer?: AnswerTaskSettingsDto;

  @ApiPropertyOptional({ type: SubmissionTaskSettingsDto })
  @ValidateIf(settingsOf('submission'))
  @IsDefined({ message: 'submission is required for a submission task' })
  @ValidateNested()
  @Type(() => SubmissionTaskSettingsDto)
  submission?: SubmissionTaskSettingsDto;

  @ApiPropertyOptional({ type: VisitTaskSettingsDto })
  @ValidateIf(settingsOf('visit'))
  @IsDefined({ message: 'visit is required for a visit task' })
  @ValidateNested()
  @Type(() => VisitTaskSettingsDto)
  visit?: VisitTaskSettingsDto;

  @ApiPropertyOptional({ type: SocialTaskSettingsDto })
  @ValidateIf(settingsOf('social'))
  @IsDefined({ message: 'social is required for a social task' })
  @ValidateNested()
  @Type(() => SocialTaskSettingsDto)
  social?: SocialTaskSettingsDto;

  @ApiPropertyOptional({ type: OnchainTaskSettingsDto })
  @ValidateIf(settingsOf('onchain'))
  @IsDefined({ message: 'onchain is required for an onchain task' })
  @ValidateNested()
  @Type(() => OnchainTaskSettingsDto)
  onchain?: OnchainTaskSettingsDto;

  @ApiPropertyOptional({ type: PartnerTaskSettingsDto })
  @ValidateIf(settingsOf('partner'))
  @IsDefined({ message: 'partner is required for a partner task' })
  @ValidateNested()
  @Type(() => PartnerTaskSettingsDto)
  partner?: PartnerTaskSettingsDto;

  @ApiPropertyOptional({ type: GameEventTaskSettingsDto })
  @ValidateIf(settingsOf('game_event'))
  @IsDefined({ message: 'gameEvent is required for a game_event task' })
  @ValidateNested()
  @Type(() => GameEventTaskSettingsDto)
  gameEvent?: GameEventTaskSettingsDto;

  @ApiPropertyOptional({ type: ReferralsTaskSettingsDto })
  @ValidateIf(settingsOf('referrals'))
  @IsDefined({ message: 'referrals is required for a referrals task' })
  @ValidateNested()
  @Type(() => ReferralsTaskSettingsDto)
  referrals?: ReferralsTaskSettingsDto;

  @ApiPropertyOptional({ type: ResourceTaskSettingsDto })
  @ValidateIf(settingsOf('resource'))
  @IsDefined({ message: 'resource is required for a resource task' })
  @ValidateNested()
  @Type(() => ResourceTaskSettingsDto)
  resource?: ResourceTaskSettingsDto;

  @ApiPropertyOptional({ type: QuestRefTaskSettingsDto })
  @ValidateIf(settingsOf('quest'))
  @IsDefined({ message: 'quest is required for a quest task' })
  @ValidateNested()
  @Type(() => QuestRefTaskSettingsDto)
  quest?: QuestRefTaskSettingsDto;
}

/** A task: its kind, and that kind's settings under the property of the same name (`gameEvent` for `game_event`). */
export class CreateQuestTaskDto extends TaskSettingsFields {
  @ApiProperty({ enum: QUEST_TASK_KINDS, example: 'answer' })
  @IsIn(QUEST_TASK_KINDS)
  kind: QuestTaskKind;

  @ApiProperty({ example: 'Name the ship of the first season' })
  @RequiredText({ max: 200 })
  @NotBlank()
  title: string;

  @OptionalText({ max: 2000 })
  description?: string;

  /** Where it shows among the quest's tasks (default: last). */
  @OptionalInt({ min: 0, max: 1000 })
  position?: number;
}

/** Title, description, position, and the settings of the task's kind (they replace the stored ones; an answer task keeps its answers unless new ones are sent). The kind is fixed. */
export class UpdateQuestTaskDto extends TaskSettingsFields {
  @OptionalText({ min: 1, max: 200 })
  @NotBlank()
  title?: string;

  @OptionalText({ max: 2000 })
  description?: string;

  @OptionalInt({ min: 0, max: 1000 })
  position?: number;
}

/** A task as operators see it: its settings without secrets (an answer task's answer count, never the answers). */
export class QuestTaskDto {
  @ApiProperty({ format: 'uuid', example: '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d' })
  id: string;

  @ApiProperty({ format: 'uuid', example: '6c1f3e0a-2b7e-4a55-9a0c-2f9d1a4e5b11' })
  questId: string;

  @ApiProperty({ enum: QUEST_TASK_KINDS, example: 'answer' })
  kind: QuestTaskKind;

  @ApiProperty({ example: 'Name the ship of the first season' })
  title: string;

  @ApiProperty({ example: '' })
  description: string;

  @ApiProperty({ example: 0 })
  position: number;

  /** The kind's settings as stored, secrets left out: an answer task shows `answerCount`, not its answers. */
  @ApiProperty({ type: 'object', additionalProperties: true, example: { answerCount: 1, caseSensitive: false, spaces: 'collapse' } })
  settings: Record<string, unknown>;

  /** A partner task's signing secret: only in the answer that created the task (or rotated it). */
  @ApiPropertyOptional({ example: 'whsec_3q2+7w...' })
  secret?: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-12-02T10:00:00.000Z' })
  createdAt: string;
}

/** A player's answer to an `answer` task. */
export class AnswerTaskDto {
  @ApiProperty({ example: 'Treasure Island', maxLength: MAX_ANSWER_LENGTH })
  @RequiredText({ max: MAX_ANSWER_LENGTH })
  answer: string;
}

/** A player's submission to a `submission` task: its text or URL, as the task's format says. */
export class SubmitTaskDto {
  @ApiProperty({ example: 'https://x.com/ada/status/1864000000000000000', maxLength: 2048 })
  @RequiredText({ max: 2048 })
  @NotBlank()
  content: string;
}
