import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error.js';
import { EncryptionService } from '../../crypto/encryption.service.js';
import { newWebhookSecret } from '../../integrations/webhook-signature.js';
import type { CreateQuestTaskDto, QuestTaskDto, UpdateQuestTaskDto } from '../dto/quest-task.dto.js';
import type { QuestTask } from '../entities/quest-task.entity.js';
import { QuestReferencesReadModel } from '../quest-references.read-model.js';
import { QuestErrors } from '../quests.errors.js';
import { QuestListsCache } from '../quest-lists.cache.js';
import { QuestsRepository } from '../quests.repository.js';
import { QuestTasksRepository } from './quest-tasks.repository.js';
import { QUEST_TASK_KINDS, SETTINGS_PROPERTY, type QuestTaskKind, type QuestTaskSettings } from './task-kinds.js';
import { publicSettings, settingsProblem, toStoredSettings, type SettingsInput } from './task-settings.js';
import { OnchainVerifier } from './verifiers/onchain.verifier.js';
import { partnerSecretContext } from './verifiers/partner.verifier.js';
import { idOf } from '../../common/validation/uuid.js';

/** Most tasks one quest holds. */
export const MAX_TASKS_PER_QUEST = 20;

/** Operators' management of a quest's tasks (management API, console). */
@Injectable()
export class QuestTasksService {
  constructor(
    private readonly repo: QuestTasksRepository,
    private readonly quests: QuestsRepository,
    private readonly references: QuestReferencesReadModel,
    private readonly encryption: EncryptionService,
    private readonly chains: OnchainVerifier,
    private readonly lists: QuestListsCache,
  ) {}

  async list(tenantId: string, questId: string): Promise<QuestTaskDto[]> {
    await this.quest(tenantId, questId);
    return (await this.repo.findTasks(tenantId, questId.toLowerCase())).map((t) => toTaskDto(t));
  }

  async create(tenantId: string, questId: string, dto: CreateQuestTaskDto): Promise<QuestTaskDto> {
    const quest = await this.quest(tenantId, questId);
    const existing = await this.repo.findTasks(tenantId, quest.id);
    if (existing.length >= MAX_TASKS_PER_QUEST)
      throw new DomainError(QuestErrors.invalid_task, `A quest holds at most ${MAX_TASKS_PER_QUEST} tasks`);
    const settings = await this.settings(tenantId, quest, dto.kind, dto, null);
    const secret = dto.kind === 'partner' ? newWebhookSecret() : null;
    const task = await this.repo.insertTask({
      tenantId,
      questId: quest.id,
      kind: dto.kind,
      title: dto.title,
      description: dto.description ?? '',
      position: dto.position ?? (existing.at(-1)?.position ?? -1) + 1,
      settings,
      secretEnc: null,
    });
    if (secret) {
      task.secretEnc = await this.encryption.encrypt(secret, partnerSecretContext(task.id));
      await this.repo.updateTask(tenantId, task.id, { secretEnc: task.secretEnc });
    }
    await this.repo.recount(tenantId, quest.id);
    this.lists.drop(tenantId);
    return toTaskDto(task, secret ?? undefined);
  }

  async update(tenantId: string, questId: string, taskId: string, dto: UpdateQuestTaskDto): Promise<QuestTaskDto> {
    const quest = await this.quest(tenantId, questId);
    const task = await this.task(tenantId, quest.id, taskId);
    const sent = QUEST_TASK_KINDS.filter((k) => (dto as Record<string, unknown>)[SETTINGS_PROPERTY[k]] !== undefined);
    if (sent.some((k) => k !== task.kind))
      throw new DomainError(
        QuestErrors.invalid_task,
        `The task is of kind ${task.kind}: send its settings as ${SETTINGS_PROPERTY[task.kind]}`,
      );
    if (dto.title !== undefined) task.title = dto.title;
    if (dto.description !== undefined) task.description = dto.description;
    if (dto.position !== undefined) task.position = dto.position;
    if (sent.length > 0) task.settings = await this.settings(tenantId, quest, task.kind, dto, task.settings);
    await this.repo.updateTask(tenantId, task.id, {
      title: task.title,
      description: task.description,
      position: task.position,
      settings: task.settings,
    });
    return toTaskDto(task);
  }

  /** A partner task's new signing secret (the old one stops working at once). */
  async rotateSecret(tenantId: string, questId: string, taskId: string): Promise<QuestTaskDto> {
    const quest = await this.quest(tenantId, questId);
    const task = await this.task(tenantId, quest.id, taskId);
    if (task.kind !== 'partner') throw new DomainError(QuestErrors.invalid_task, 'Only partner tasks have a secret');
    const secret = newWebhookSecret();
    task.secretEnc = await this.encryption.encrypt(secret, partnerSecretContext(task.id));
    await this.repo.updateTask(tenantId, task.id, { secretEnc: task.secretEnc });
    return toTaskDto(task, secret);
  }

  async remove(tenantId: string, questId: string, taskId: string): Promise<void> {
    const quest = await this.quest(tenantId, questId);
    const id = idOf(taskId);
    if (!id || !(await this.repo.deleteTask(tenantId, quest.id, id)))
      throw new DomainError(QuestErrors.task_not_found, `No task ${taskId.slice(0, 64)} in this quest`);
    await this.repo.recount(tenantId, quest.id);
    this.lists.drop(tenantId);
  }

  private async settings(
    tenantId: string,
    quest: { id: string; communityId: string },
    kind: QuestTaskKind,
    dto: CreateQuestTaskDto | UpdateQuestTaskDto,
    stored: QuestTaskSettings | null,
  ): Promise<QuestTaskSettings> {
    const body = dto as Record<string, unknown>;
    const others = QUEST_TASK_KINDS.filter((k) => k !== kind && body[SETTINGS_PROPERTY[k]] !== undefined);
    if (others.length > 0)
      throw new DomainError(
        QuestErrors.invalid_task,
        `A ${kind} task takes ${SETTINGS_PROPERTY[kind]} only, not ${others.map((k) => SETTINGS_PROPERTY[k]).join(', ')}`,
      );
    const input = body[SETTINGS_PROPERTY[kind]] as SettingsInput[typeof kind];
    const problem = settingsProblem(kind, input, stored);
    if (problem) throw new DomainError(QuestErrors.invalid_task, problem);
    const settings = toStoredSettings(kind, input, stored);
    await this.checkReferences(tenantId, quest, kind, settings);
    return settings;
  }

  /** What a task names must exist where the quest is: a chain configured, a resource type or quest of its community. */
  private async checkReferences(
    tenantId: string,
    quest: { id: string; communityId: string },
    kind: QuestTaskKind,
    s: QuestTaskSettings,
  ): Promise<void> {
    if (kind === 'onchain') {
      const chain = (s as { chain: string }).chain;
      if (!this.chains.knows(chain)) throw new DomainError(QuestErrors.invalid_task, `No chain ${chain} is configured (QUEST_CHAINS)`);
    }
    if (kind === 'resource') {
      const id = (s as { resourceTypeId: string }).resourceTypeId;
      if (!(await this.references.communityResourceType(tenantId, quest.communityId, id)))
        throw new DomainError(QuestErrors.invalid_task, `Resource type ${id} is not a resource type of this community`);
    }
    if (kind === 'quest') {
      const id = (s as { questId: string }).questId;
      const other = await this.quests.findById(tenantId, id);
      if (!other || other.communityId !== quest.communityId || other.id === quest.id)
        throw new DomainError(QuestErrors.invalid_task, `Quest ${id} is not another quest of this community`);
    }
  }

  private async quest(tenantId: string, questId: string) {
    const quest = await this.quests.findById(tenantId, questId);
    if (!quest) throw new DomainError(QuestErrors.quest_not_found, `No quest ${questId.slice(0, 64)} in this tenant`);
    return quest;
  }

  private async task(tenantId: string, questId: string, taskId: string): Promise<QuestTask> {
    const id = idOf(taskId);
    const task = id ? await this.repo.findTask(tenantId, questId, id) : null;
    if (!task) throw new DomainError(QuestErrors.task_not_found, `No task ${taskId.slice(0, 64)} in this quest`);
    return task;
  }
}

export function toTaskDto(t: QuestTask, secret?: string): QuestTaskDto {
  return {
    id: t.id,
    questId: t.questId,
    kind: t.kind,
    title: t.title,
    description: t.description,
    position: t.position,
    settings: publicSettings(t.kind, t.settings),
    ...(secret ? { secret } : {}),
    createdAt: t.createdAt.toISOString(),
  };
}
