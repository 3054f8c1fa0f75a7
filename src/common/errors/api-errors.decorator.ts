import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto.js';
import type { ErrorDefinition } from './error-catalog.js';

/**
 * Documents the error responses of an operation: one entry per status, listing the precise cases
 * (`error`, `code`) it can return, all with the `{code, message, error, detail}` schema.
 */
export function ApiErrors(...defs: ErrorDefinition[]) {
  const byStatus = new Map<number, ErrorDefinition[]>();
  for (const d of defs) byStatus.set(d.status, [...(byStatus.get(d.status) ?? []), d]);
  return applyDecorators(
    ...[...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => ApiResponse({ status, ...errorResponse(status, list), type: ErrorBodyDto })),
  );
}

/** The description and example of one status's error response, listing its cases. */
export function errorResponse(status: number, list: readonly ErrorDefinition[]): { description: string; example: object } {
  return {
    description: [
      statusNote(status),
      ...list.map((d) => `\`${d.error}\` (${d.code}${d.message !== d.error ? `, message \`${d.message}\`` : ''}): ${d.description}`),
    ]
      .filter(Boolean)
      .join('\n\n'),
    example: { code: list[0].code, message: list[0].message, error: list[0].error, detail: list[0].description },
  };
}

/** What a client compares for this status, said once above the list of cases. */
function statusNote(status: number): string {
  if (status === 400) return '`message` is `generic_client_error` and `code` 10002 for every case below; `error` names the case.';
  if (status === 401)
    return '`message` is `SESSION_TOKEN_EXPIRED` (refresh the session), `REFRESH_TOKEN_EXPIRED` (log in again) or `GENERIC_UNAUTHORIZED` (every other case below); `error` names the case.';
  return '';
}
