/** A deadlock or serialization failure: the transaction lost a race, was rolled back, and may simply be run again. */
export function isWriteConflict(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } } | undefined;
  const code = e?.code ?? e?.driverError?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Runs `fn` again while it fails with a write conflict, `attempts` times in all. Only for a `fn`
 * that is whole transactions (a conflict rolled back everything it wrote); the last conflict is
 * thrown (a 409 `write_conflict`: the client may retry).
 */
export async function retryWriteConflicts<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !isWriteConflict(err)) throw err;
    }
  }
}
