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

/** How an ISO 8601 date starts: a year (four digits, or six with a sign), a month and a day. */
const ISO_DATE_START = /^[+-]?\d{4,6}-\d\d-\d\d/;

/**
 * A date-time sent as an ISO 8601 string becomes a `Date`; anything else (a number, `1.5` or `-1`,
 * which `new Date` reads as dates, an object) is left for `@IsDate` to refuse.
 */
export const ToDate = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' && ISO_DATE_START.test(value) ? new Date(value) : value));
