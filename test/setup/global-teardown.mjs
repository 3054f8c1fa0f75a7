export default async function globalTeardown() {
  await globalThis.__CGS_EMBEDDED__?.stop();
}
