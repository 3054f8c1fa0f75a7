import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv as AjvInstance, ValidateFunction } from 'ajv';
import { ENVELOPE_SCHEMA, EVENT_CATALOG, PUBLIC_EVENT_TYPES, type PublicEventType } from '../../src/integrations/event-catalog.js';

// ajv and ajv-formats are CommonJS; require() sidesteps their default-export interop under ESM.
const require = createRequire(import.meta.url);
const { Ajv } = require('ajv') as typeof AjvModule;
const addFormats = require('ajv-formats') as (ajv: AjvInstance) => AjvInstance;

/** ajv validators of the published event schemas: the envelope and each type's payload. */
export function eventValidators(): { ajv: AjvInstance; envelope: ValidateFunction; payload: Record<PublicEventType, ValidateFunction> } {
  const ajv = addFormats(new Ajv({ strict: true, allErrors: true, allowUnionTypes: true }));
  const payload = Object.fromEntries(PUBLIC_EVENT_TYPES.map((type) => [type, ajv.compile(EVENT_CATALOG[type].schema)])) as Record<
    PublicEventType,
    ValidateFunction
  >;
  return { ajv, envelope: ajv.compile(ENVELOPE_SCHEMA), payload };
}
