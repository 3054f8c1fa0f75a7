import { Transform } from 'class-transformer';

/**
 * Query strings are strings: `true`/`false` (also `1`/`0`) become booleans; anything else is
 * left as it is so that `@IsBoolean()` refuses it with a 400.
 */
export const ToBoolean = () =>
  Transform(({ value }: { value: unknown }) => {
    if (value === 'true' || value === '1' || value === true) return true;
    if (value === 'false' || value === '0' || value === false) return false;
    return value;
  });

/** A query parameter given once (`?tags=a`) or repeated (`?tags=a&tags=b`) or comma-separated (`?tags=a,b`) becomes an array. */
export const ToArray = () =>
  Transform(({ value }: { value: unknown }) => {
    if (value === undefined || value === null) return value;
    const list = Array.isArray(value) ? value : [value];
    return list.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])).map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
  });
