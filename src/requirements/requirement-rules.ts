import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv as AjvInstance, ErrorObject, ValidateFunction } from 'ajv';
import { sha256Hex } from '../crypto/hashing.js';

// ajv and ajv-formats are CommonJS; require() sidesteps their default-export interop under ESM.
const require = createRequire(import.meta.url);
const { Ajv } = require('ajv') as typeof AjvModule;
const addFormats = require('ajv-formats') as (ajv: AjvInstance) => AjvInstance;

/** Largest requirement data object accepted, as JSON. */
export const REQUIREMENT_DATA_MAX_BYTES = 4096;
/** Largest JSON schema of a requirement, as JSON. */
export const REQUIREMENT_SCHEMA_MAX_BYTES = 16384;

const ajv = addFormats(new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }));

/** A compiled requirement schema (`validate(data)` gives the reasons it fails, empty when valid). */
export interface RequirementValidator {
  validate(data: unknown): string[];
}

/**
 * Compiles a requirement's JSON schema; throws an Error saying why when it is not a usable schema
 * for a JSON object (`type: "object"` at the top is required, since requirement data is an object).
 */
export function compileRequirementSchema(schema: unknown): RequirementValidator {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error('schema must be a JSON object');
  if (Buffer.byteLength(JSON.stringify(schema)) > REQUIREMENT_SCHEMA_MAX_BYTES)
    throw new Error(`schema exceeds ${REQUIREMENT_SCHEMA_MAX_BYTES} bytes`);
  if ((schema as { type?: unknown }).type !== 'object') throw new Error('schema must have type "object" at the top');
  if ('$id' in schema) throw new Error('schema must not declare $id');
  let fn: ValidateFunction;
  try {
    fn = ajv.compile(schema);
  } catch (e) {
    throw new Error(`invalid JSON schema: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return { validate: (data) => (fn(data) ? [] : formatErrors(fn.errors ?? [])) };
}

function formatErrors(errors: ErrorObject[]): string[] {
  return errors.map((e) => {
    const where = e.instancePath === '' ? 'data' : `data${e.instancePath.replace(/\//g, '.')}`;
    if (e.keyword === 'required')
      return `${where} must have property "${String((e.params as { missingProperty: string }).missingProperty)}"`;
    if (e.keyword === 'additionalProperties')
      return `${where} must not have property "${String((e.params as { additionalProperty: string }).additionalProperty)}"`;
    return `${where} ${e.message ?? 'is invalid'}`;
  });
}

/** JSON with object keys sorted at every level: equal data gives equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface RequirementDataInput {
  requirementId: string;
  shouldSave?: boolean;
  data: Record<string, unknown>;
}

/**
 * What a purchase request is, for telling a replay (same nonce, same request) from a reused nonce:
 * sha256 of the listing id and the requirement data, normalised (ids lowercased, entries sorted by
 * id, `shouldSave` defaulted to false, object keys sorted).
 */
export function purchaseFingerprint(listingId: string, items: readonly RequirementDataInput[]): string {
  const normalised = items
    .map((i) => ({ requirementId: i.requirementId.toLowerCase(), shouldSave: i.shouldSave ?? false, data: i.data }))
    .sort((a, b) => (a.requirementId < b.requirementId ? -1 : a.requirementId > b.requirementId ? 1 : 0));
  return sha256Hex(`${listingId.toLowerCase()}\n${canonicalJson(normalised)}`);
}
