/** Freezes `o` and every object under it (shared values: a reader that tried to change one would throw). */
export function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) deepFreeze(v as object);
  return Object.freeze(o);
}
