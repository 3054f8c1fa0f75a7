import type { Quest } from '../../entities/quest.entity.js';
import type { QuestTask } from '../../entities/quest-task.entity.js';
import type { QuestPeriod } from '../../schedule/quest-period.js';
import type { QuestTaskKind } from '../task-kinds.js';

/** What a verifier is asked about: this player, this task, in this period. */
export interface VerifyInput {
  tenantId: string;
  userId: string;
  quest: Quest;
  task: QuestTask;
  period: QuestPeriod;
  now: Date;
}

/** A verifier's answer. */
export interface Verdict {
  done: boolean;
  /** When not done: what is missing, in the player's terms ("Link a Discord account first"). */
  missing?: string;
  /** Counted tasks: how far the player is. */
  progress?: { current: number; target: number };
  /** The other system gave no answer (try again later): not a "no". */
  unavailable?: boolean;
}

/**
 * Checks one kind of task against what the service holds or another system says. Verifiers that
 * call another system (`external`) are counted against the community's verifier-call budget and
 * their answers kept briefly; none of them runs inside a database transaction.
 */
export abstract class TaskVerifier {
  abstract readonly kind: QuestTaskKind;
  readonly external: boolean = false;
  abstract verify(input: VerifyInput): Promise<Verdict>;
}

export const done = (progress?: Verdict['progress']): Verdict => ({ done: true, ...(progress ? { progress } : {}) });
export const missing = (why: string, progress?: Verdict['progress']): Verdict => ({
  done: false,
  missing: why,
  ...(progress ? { progress } : {}),
});
export const unavailable = (why: string): Verdict => ({ done: false, missing: why, unavailable: true });
