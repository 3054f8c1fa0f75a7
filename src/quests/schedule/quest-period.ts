import { DateTime } from 'luxon';

export const QUEST_RECURRENCES = ['once', 'daily', 'weekly', 'monthly'] as const;
export type QuestRecurrence = (typeof QUEST_RECURRENCES)[number];

/** One period of a quest: its key (what a completion and a task's progress are stored under) and bounds. */
export interface QuestPeriod {
  /** `once`, `2026-12-02` (daily), `2026-W49` (ISO week), `2026-12` (monthly). */
  key: string;
  /** First instant of the period (null for `once`). */
  start: Date | null;
  /** First instant after it (null for `once`). */
  end: Date | null;
}

const ONCE: QuestPeriod = Object.freeze({ key: 'once', start: null, end: null });

const UNIT = { daily: 'day', weekly: 'week', monthly: 'month' } as const;
const FORMAT = { daily: 'yyyy-MM-dd', weekly: "kkkk-'W'WW", monthly: 'yyyy-MM' } as const;

/**
 * The period of `recurrence` holding `at`, in the community's time zone (IANA): days from local
 * midnight, ISO weeks from Monday, months from the 1st. A day of a daylight-saving change is 23 or
 * 25 hours long; its bounds are still local midnights. An instant belongs to exactly one period.
 */
export function questPeriod(recurrence: QuestRecurrence, timeZone: string, at: Date): QuestPeriod {
  if (recurrence === 'once') return ONCE;
  const local = DateTime.fromJSDate(at, { zone: timeZone });
  if (!local.isValid) throw new Error(`invalid time zone ${timeZone}`);
  const start = local.startOf(UNIT[recurrence], { useLocaleWeeks: false });
  const end = start.plus({ [`${UNIT[recurrence]}s`]: 1 });
  return { key: start.toFormat(FORMAT[recurrence]), start: start.toJSDate(), end: end.toJSDate() };
}

/** The period just before `period` (for streaks); null for `once`. */
export function previousPeriod(recurrence: QuestRecurrence, timeZone: string, period: QuestPeriod): QuestPeriod | null {
  if (recurrence === 'once' || !period.start) return null;
  return questPeriod(recurrence, timeZone, new Date(period.start.getTime() - 1));
}
