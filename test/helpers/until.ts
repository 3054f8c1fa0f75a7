/**
 * Polls `read` until `ok` holds of its value and returns that value; fails after `timeoutMs`
 * naming the last value (what travels between instances, a worker's pass: things that settle).
 */
export async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, { timeoutMs = 5000, everyMs = 10 } = {}): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`not seen after ${timeoutMs / 1000} s: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
