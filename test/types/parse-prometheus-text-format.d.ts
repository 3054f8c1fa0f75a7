/** The package ships no types: the one function the tests use (test/helpers/metrics.ts). */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
