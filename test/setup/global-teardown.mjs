export default async function globalTeardown() {
  // Idempotent: several projects may share this teardown (or call it from theirs).
  const db = globalThis.__CGS_EMBEDDED__;
  globalThis.__CGS_EMBEDDED__ = undefined;
  await db?.stop();
}
