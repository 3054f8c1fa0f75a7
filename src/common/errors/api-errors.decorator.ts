import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto.js';
import type { ErrorDefinition } from './error-catalog.js';

/**
 * Documents the error responses of an operation: one entry per status, listing the
 * `error`/`code` pairs it can return, all with the `{code, error, message}` schema.
 */
export function ApiErrors(...defs: ErrorDefinition[]) {
  const byStatus = new Map<number, ErrorDefinition[]>();
  for (const d of defs) byStatus.set(d.status, [...(byStatus.get(d.status) ?? []), d]);
  return applyDecorators(
    ...[...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) =>
        ApiResponse({
          status,
          description: list.map((d) => `\`${d.error}\` (${d.code}): ${d.description}`).join('\n\n'),
          type: ErrorBodyDto,
          example: { code: list[0].code, error: list[0].error, message: list[0].description },
        }),
      ),
  );
}
