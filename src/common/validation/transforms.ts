import { Transform } from 'class-transformer';

/**
 * The one spelling of a boolean in every query string: `true`/`false` in any case, or `1`/`0`.
 * Anything else (the empty string included, which some parameters give a meaning of their own)
 * is left as it is for the validator to accept or refuse.
 */
export function parseBooleanParam(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return value;
}

/** Query booleans through `parseBooleanParam`; follow with `@IsBoolean()` (or `@IsIn(['', true, false])`). */
export const ToBoolean = () => Transform(({ value }: { value: unknown }) => parseBooleanParam(value));

/** A query parameter given once (`?tags=a`) or repeated (`?tags=a&tags=b`) or comma-separated (`?tags=a,b`) becomes an array. */
export const ToArray = () =>
  Transform(({ value }: { value: unknown }) => {
    if (value === undefined || value === null) return value;
    const list: unknown[] = Array.isArray(value) ? value : [value];
    return list
      .flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]))
      .map((v) => (typeof v === 'string' ? v.trim() : v))
      .filter((v) => v !== '');
  });

/**
 * An integer sent as text (a query parameter, or a body field a client wrote as a string) becomes a
 * number only when it is decimal digits with an optional minus sign: not hex (`0x10`), an exponent
 * (`1e1`), spaces or a fraction, which `Number` would read. Anything else, objects included
 * (`page[a]=1`, whose null-prototype object `Number` cannot even convert), is left for `@IsInt` to
 * refuse.
 */
export const ToInteger = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value));

/** The date an ISO 8601 date-time starts with: a year (four digits, or six with a sign), a month, a day. */
const ISO_DATE_START = /^([+-]\d{6}|\d{4})-(\d\d)-(\d\d)/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether `value` starts with a date of the calendar: `new Date` moves `2026-02-30` to March 2.
 * (validator.js's `isISO8601` with `strict` checks this too, but reads years below 100 as 19xx
 * and so refuses `0001-01-01`, the first date the API accepts.)
 */
function startsWithCalendarDate(value: string): boolean {
  const m = ISO_DATE_START.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month - 1]);
}

/**
 * A date-time sent as an ISO 8601 string of a calendar date becomes a `Date`; anything else
 * (`2026-02-30`, a number, `1.5` or `-1`, which `new Date` reads as dates, an object) is left for
 * `@IsDate` to refuse.
 */
export const ToDate = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && startsWithCalendarDate(value) ? new Date(value) : value));
