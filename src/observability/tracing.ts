import { register } from 'node:module';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import type { AppConfig } from '../config/app-config.js';
import { CREDENTIAL_QUERY_PARAMS } from '../common/security/secret-names.js';
import { onTracingStop } from './tracing-state.js';

/**
 * OpenTelemetry tracing, started by `main.ts` in each serving process before the application is
 * imported, only when an OTLP endpoint is set (`tracingEnabled`): without one, nothing of
 * OpenTelemetry is loaded. Spans: HTTP server and client (`node:http`), Express, and `pg`; the
 * request id (`X-Request-Id`, src/common/logging/request-id.ts) is the server span's
 * `http.response.header.x-request-id` attribute. The exporter, protocol, headers, sampler and
 * resource follow the standard `OTEL_*` variables, read by the SDK itself.
 *
 * The project is ESM: an `import` reaches a module without passing `require`, so the SDK's
 * require hook alone would patch nothing. import-in-the-middle's loader hook is registered first,
 * told (through its message channel) to wrap only the modules the instrumentations ask for; the
 * dynamic `import()` of the application that follows goes through it.
 */
const UNTRACED = new Set(['/health', '/health/ready', '/metrics']);

export async function startTracing(config: AppConfig): Promise<void> {
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [{ NodeSDK }, { HttpInstrumentation }, { ExpressInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const sdk = new NodeSDK({
    serviceName: config.OTEL_SERVICE_NAME,
    // Traces only: the metrics are Prometheus's (/metrics), the logs go to stdout. Left to
    // itself the SDK would also export its metrics and logs to the same endpoint.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        headersToSpanAttributes: { server: { responseHeaders: ['x-request-id'] } },
        // Probes and scrapes would be most of the spans and tell nothing.
        ignoreIncomingRequestHook: (req) => UNTRACED.has(req.url?.split('?')[0] ?? ''),
        // A span's URL keeps no credential sent in a query string (the stream ticket, API keys).
        redactedQueryParamsServer: CREDENTIAL_QUERY_PARAMS,
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  onTracingStop(() => sdk.shutdown());
  await waitForAllMessagesAcknowledged();
}
