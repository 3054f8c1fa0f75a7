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
