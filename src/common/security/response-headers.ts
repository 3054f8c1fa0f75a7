import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * The security headers of every answer that is not an HTML page: the list the OWASP REST Security
 * Cheat Sheet gives for API responses (with `Content-Type`, which every answer sets itself).
 * `no-store` because answers carry a caller's own data; so no ETag either (`app.setup.ts`).
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
});

/** Paths that serve HTML documents: Swagger UI and the operator console. */
const HTML_PREFIXES = ['/docs', '/console'];

/**
 * Security headers by kind of answer (docs/decisions.md, "Security headers"): helmet's full set,
 * made for HTML documents (CSP for scripts and styles, COOP, referrer policy, ...), on the pages of
 * Swagger UI and the console; the API set above on everything else, the JSON of `/v1`, health and
 * metrics, where most of helmet's headers mean nothing to the client.
 */
export function securityHeaders(): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void {
  const html = helmet();
  const api = Object.entries(API_SECURITY_HEADERS);
  return (req, res, next) => {
    const url = req.url ?? '';
    // By whole segment: `/docs-json`, the OpenAPI document, is JSON.
    if (HTML_PREFIXES.some((p) => url.startsWith(p) && (url.length === p.length || '/?'.includes(url[p.length])))) {
      return void html(req, res, next);
    }
    for (const [name, value] of api) res.setHeader(name, value);
    next();
  };
}
