import type { DateOfBirthDto } from './dto/profile.dto.js';

/** Whether y-m-d is a real calendar date strictly before `today` (UTC). Pure, unit-tested. */
export function dateOfBirthProblem(d: DateOfBirthDto, today: Date): string | null {
  const date = new Date(Date.UTC(d.year, d.month - 1, d.day));
  if (date.getUTCFullYear() !== d.year || date.getUTCMonth() !== d.month - 1 || date.getUTCDate() !== d.day) {
    return `dateOfBirth ${d.year}-${d.month}-${d.day} is not a calendar date`;
  }
  const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  if (date.getTime() >= todayUtc) return 'dateOfBirth must be before today';
  return null;
}
