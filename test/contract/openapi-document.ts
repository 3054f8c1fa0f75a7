import { readFileSync } from 'node:fs';

/** The parts of an OpenAPI schema object the contract tests read. */
export type Schema = {
  $ref?: string;
  type?: string;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  example?: unknown;
  enum?: unknown[];
};
export type Parameter = { name: string; in: string; required?: boolean; schema?: Schema };
export type Response = { content?: Record<string, { schema?: Schema; example?: { code?: unknown; message?: unknown } }> };
export type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }>; required?: boolean };
  security?: unknown[];
  responses: Record<string, Response>;
};

/** The committed openapi.json (the published contract; a drift test keeps it equal to the code). */
export const openapi = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};
