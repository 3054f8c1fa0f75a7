import { createParamDecorator, type ExecutionContext, Injectable, type PipeTransform, type ArgumentMetadata } from '@nestjs/common';
import type { Request } from 'express';
import { validationPipe } from '../app.setup.js';
import { DomainError } from '../common/errors/domain-error.js';
import { CommonErrors } from '../common/errors/error-catalog.js';
import { isPrototypeKey } from '../common/validation/safe-input.js';

/**
 * The query string with OpenAPI `deepObject` parameters folded into objects:
 * `filter[status]=active&filter[status]=completed&filter[containerId]=x` becomes
 * `{filter: {status: ['active', 'completed'], containerId: 'x'}}`. Express 5's default (simple)
 * query parser leaves such keys flat, and switching the whole app to the extended parser would
 * change every other route, so this one route folds them itself.
 */
export function foldDeepObjects(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of Object.entries(query)) {
    const m = /^([A-Za-z0-9_]+)\[([A-Za-z0-9_]+)\](?:\[\])?$/.exec(key);
    if (!m) {
      out[key] = value;
      continue;
    }
    if (isPrototypeKey(m[1]) || isPrototypeKey(m[2])) throw new DomainError(CommonErrors.generic_client_error, `The query parameter name "${key.slice(0, 64)}" is not allowed`);
    const parent = (out[m[1]] ??= Object.create(null) as Record<string, unknown>);
    if (typeof parent !== 'object' || parent === null || Array.isArray(parent)) {
      out[m[1]] = value; // `filter=x&filter[a]=y`: leave it to the validation to refuse
      continue;
    }
    (parent as Record<string, unknown>)[m[2]] = value;
  }
  return out;
}

/** `@Query()` with deepObject parameters folded; pass `DeepQueryValidation` to validate the DTO. */
export const DeepObjectQuery = createParamDecorator((_: unknown, ctx: ExecutionContext) => foldDeepObjects({ ...(ctx.switchToHttp().getRequest<Request>().query as Record<string, unknown>) }));

/** The app's validation pipe, applied to a custom (deepObject) query parameter as if it were `@Query()`. */
@Injectable()
export class DeepQueryValidation implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    return validationPipe.transform(value, { ...metadata, type: 'query' });
  }
}
