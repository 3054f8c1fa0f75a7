import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

export interface JsonBounds {
  /** Largest size of the object serialised as JSON, in bytes. */
  maxBytes: number;
  /** Deepest nesting; the object itself is depth 1. */
  maxDepth: number;
}

/** Why `value` is not a JSON object within `bounds`, or null when it is. Pure, unit-tested. */
export function boundedJsonObjectProblem(value: unknown, bounds: JsonBounds): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a JSON object';
  const depth = (v: unknown): number => {
    if (typeof v !== 'object' || v === null) return 0;
    const children = Array.isArray(v) ? v : Object.values(v);
    return 1 + children.reduce<number>((m, c) => Math.max(m, depth(c)), 0);
  };
  // The NUL character cannot be stored in PostgreSQL jsonb.
  const json = JSON.stringify(value);
  if (json.includes('\\u0000')) return 'must not contain the NUL character';
  if (Buffer.byteLength(json) > bounds.maxBytes) return `must be at most ${bounds.maxBytes} bytes as JSON`;
  if (depth(value) > bounds.maxDepth) return `must be nested at most ${bounds.maxDepth} levels deep`;
  return null;
}

/** A JSON object (not an array or scalar) of bounded size and depth. */
export function IsBoundedJsonObject(bounds: JsonBounds, options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isBoundedJsonObject',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => boundedJsonObjectProblem(value, bounds) === null,
        defaultMessage: (args: ValidationArguments) => `${args.property} ${boundedJsonObjectProblem(args.value, bounds) ?? 'is invalid'}`,
      },
    });
}

/** PostgreSQL text cannot hold the NUL character; refuse it with a 400 instead of failing later. */
// eslint-disable-next-line no-control-regex -- the NUL character is exactly what this refuses
export const NO_NUL = /^[^\u0000]*$/;
