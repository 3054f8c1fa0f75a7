/**
 * The running OpenTelemetry SDK's shutdown, set by `tracing.ts` when it starts one. Apart from it
 * so that the application can flush the spans without loading anything of OpenTelemetry.
 */
let stop: (() => Promise<void>) | undefined;

export function onTracingStop(fn: () => Promise<void>): void {
  stop = fn;
}

/** Sends the buffered spans and stops the SDK (once); nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  const fn = stop;
  stop = undefined;
  await fn?.().catch(() => undefined);
}
