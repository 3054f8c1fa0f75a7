import type { ValueTransformer } from 'typeorm';

/** bigint columns as JS numbers (amounts are kept below 2^53 by validation). */
export const bigintNumber: ValueTransformer = {
  to: (v: unknown) => v,
  from: (v: unknown) => (v === null || v === undefined ? v : Number(v)),
};
