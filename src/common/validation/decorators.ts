import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ToDate } from './transforms.js';
import {
  ArrayMaxSize,
  IsArray,
  IsDate,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';

/*
 * Combined validation decorators for the request DTOs: each stands for a stack of class-validator
 * decorators that many fields repeat, and documents the field with `@ApiProperty` as the Swagger
 * plugin documents the written stack (`minLength`, `maxLength`, `format`, ...); the `Optional...` ones as
 * not required. The type and the description stay the plugin's (the TypeScript type, the comment).
 *
 * `@ApiProperty` lists a property ahead of the properties the plugin alone documents: in a DTO that
 * mixes both, a plain `@ApiProperty()` on a plugin-only property keeps it where it is declared.
 *
 * `@Min` with a negative bound (a listing's `position`) stays a written stack: the Swagger
 * plugin fails on it and leaves the property out of the schema; a combined decorator would
 * bring it back, which changes the contract.
 */

/**
 * Applies decorators as if they were written one above the other on the property: the last one
 * first, as TypeScript does. class-validator reports a property's failures in the order its
 * decorators ran, so the 400 messages keep the order they had with the written stacks.
 */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}

/** What the Swagger plugin's `classValidatorShim` infers from the written stack, for a combined decorator. */
const Schema = (options: ApiPropertyOptions): PropertyDecorator => ApiProperty(options);

/**
 * An optional field that cannot be null: absent, its checks are skipped; null goes through them and
 * fails (a 400 naming the field). `@IsOptional()` skips null too, which let null reach NOT NULL
 * columns and code reading the value (500s). This is the `ValidateIf` that
 * `PartialType(..., { skipNullProperties: false })` of @nestjs/mapped-types adds.
 */
export function IfPresent(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

/**
 * `nullable: true` where null empties the field (an image URL, an unlimited supply): null then skips
 * the checks, as `@IsOptional()` does. Otherwise null is refused (`IfPresent`).
 */
interface NullOption {
  nullable?: boolean;
}
const optional = (nullable = false) => (nullable ? IsOptional() : IfPresent());

/** A character that shows: not white space, not an invisible format character (U+200B, U+FEFF, ...). */
const VISIBLE = /[^\p{White_Space}\p{Cf}]/u;

/** What `NotBlank` adds to the property's description: no JSON Schema `pattern`, as `\p{...}` classes are not portable to every client's regex engine. */
export const NOT_BLANK_DOC = 'Must hold a character that shows: not only white space or invisible format characters (U+200B, U+FEFF, ...).';

/**
 * A string with at least one character that shows (a name of only spaces would show as blank).
 * Swagger says so in the property's description.
 */
export function NotBlank({ description }: { description?: string } = {}): PropertyDecorator {
  return stacked(
    ValidateBy({
      name: 'notBlank',
      validator: {
        validate: (value) => typeof value !== 'string' || VISIBLE.test(value),
        defaultMessage: (args) => `${args?.property} must not be blank`,
      },
    }),
    Schema({ description: description === undefined ? NOT_BLANK_DOC : `${description} ${NOT_BLANK_DOC}` }),
  );
}

/** A required string of `min` (default 1) to `max` characters: `@IsString() @Length(min, max)`. */
export function RequiredText({ min = 1, max }: { min?: number; max: number }): PropertyDecorator {
  return stacked(IsString(), Length(min, max), Schema({ minLength: min, maxLength: max }));
}

/**
 * An optional string: `@IfPresent() @IsString() @MaxLength(max)`, or with `min`
 * `@IfPresent() @IsString() @Length(min, max)` (its message names both bounds); `IsOptional` with `nullable`.
 */
export function OptionalText({ min, max, nullable }: { min?: number; max: number } & NullOption): PropertyDecorator {
  const length =
    min === undefined
      ? [MaxLength(max), Schema({ required: false, maxLength: max })]
      : [Length(min, max), Schema({ required: false, minLength: min, maxLength: max })];
  return stacked(optional(nullable), IsString(), ...length);
}

/** An absolute http(s) URL of at most 2048 characters: `@IsUrl({ protocols: ['https', 'http'], require_protocol: true }) @MaxLength(2048)`. */
export function HttpUrl(): PropertyDecorator {
  return stacked(
    IsUrl({ protocols: ['https', 'http'], require_protocol: true }),
    MaxLength(2048),
    Schema({ maxLength: 2048, format: 'uri' }),
  );
}

/** `@IfPresent()` and `@HttpUrl()`; with `nullable` (null clears an image) `@IsOptional()`. */
export function OptionalUrl({ nullable }: NullOption = {}): PropertyDecorator {
  return stacked(optional(nullable), HttpUrl(), Schema({ required: false }));
}

/**
 * An optional integer from `min` to `max`: `@IfPresent() @IsInt() @Min(min) @Max(max)`, `@IsOptional()`
 * with `nullable` (a negative `min`: see above).
 */
export function OptionalInt({ min, max, nullable }: { min: number; max: number } & NullOption): PropertyDecorator {
  return stacked(optional(nullable), IsInt(), Min(min), Max(max), Schema({ required: false, minimum: min, maximum: max }));
}

/**
 * Client ids in lower case, as PostgreSQL prints them: PostgreSQL compares UUIDs in any case, but
 * the caches, their drops and the Redis rank keys compare ids as strings, so an id sent in upper
 * case would miss them. Strings only (one or a list); anything else is left to the validator.
 */
const LowerCaseUuids = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string'
      ? value.toLowerCase()
      : Array.isArray(value)
        ? value.map((v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v))
        : value,
  );

/** A UUID in any case, kept in lower case (`LowerCaseUuids`): `@IsUUID(version, options)`. */
export function IsUuid(version?: Parameters<typeof IsUUID>[0], options?: ValidationOptions): PropertyDecorator {
  return stacked(IsUUID(version, options), LowerCaseUuids(), Schema({ format: 'uuid' }));
}

/** An optional list of at most `max` UUIDs, kept in lower case: `@IfPresent() @IsArray() @ArrayMaxSize(max) @IsUUID('all', { each: true })`. */
export function OptionalUuids({ max }: { max: number }): PropertyDecorator {
  return stacked(
    IfPresent(),
    IsArray(),
    ArrayMaxSize(max),
    IsUUID('all', { each: true }),
    LowerCaseUuids(),
    Schema({ required: false, format: 'uuid', maxItems: max }),
  );
}

/**
 * Optional labels such as a quest's tags or an event's features: at most 20 strings of 1-64
 * characters matching `pattern`:
 * `@IfPresent() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @Length(1, 64, { each: true }) @Matches(pattern, { each: true })`.
 * The schema gets no `pattern`, as the plugin gave none for a pattern passed by name.
 */
export function OptionalLabels(pattern: RegExp): PropertyDecorator {
  return stacked(
    IfPresent(),
    IsArray(),
    ArrayMaxSize(20),
    IsString({ each: true }),
    Length(1, 64, { each: true }),
    Matches(pattern, { each: true }),
    Schema({ required: false, maxItems: 20, minLength: 1, maxLength: 64 }),
  );
}

/**
 * An optional list of at most `max` nested objects, each validated as `type()`:
 * `@IfPresent() @IsArray() @ArrayMaxSize(max) @ValidateNested({ each: true }) @Type(type)`.
 */
export function OptionalNestedList(type: () => new () => object, { max }: { max: number }): PropertyDecorator {
  return stacked(
    IfPresent(),
    IsArray(),
    ArrayMaxSize(max),
    ValidateNested({ each: true }),
    Type(type),
    Schema({ required: false, maxItems: max }),
  );
}

/**
 * The dates a client may send: years 1 to 9999, the four-digit years of an RFC 3339 date-time (the
 * schemas' `format: date-time`). PostgreSQL stores nothing before 4713 BC, which a `Date` reaches.
 */
export const FIRST_DATE = new Date('0001-01-01T00:00:00.000Z');
export const LAST_DATE = new Date('9999-12-31T23:59:59.999Z');

/** Refuses a date outside FIRST_DATE..LAST_DATE; an invalid date is left to `@IsDate`. */
function DateInRange(): PropertyDecorator {
  return ValidateBy({
    name: 'dateInRange',
    validator: {
      validate: (value) => !(value instanceof Date) || Number.isNaN(value.getTime()) || (value >= FIRST_DATE && value <= LAST_DATE),
      defaultMessage: (args) => `${args?.property} must be a date from 0001-01-01 to 9999-12-31`,
    },
  });
}

/**
 * For a date-time kept as a string (`@IsISO8601` passes signed years such as `-4714-01-01`, which
 * JavaScript cannot hold and PostgreSQL refuses): the string must name a date of years 1 to 9999.
 * Anything but a string is left to the other checks.
 */
export function DateStringInRange(): PropertyDecorator {
  return ValidateBy({
    name: 'dateStringInRange',
    validator: {
      validate: (value) => {
        if (typeof value !== 'string') return true;
        const d = new Date(value);
        return !Number.isNaN(d.getTime()) && d >= FIRST_DATE && d <= LAST_DATE;
      },
      defaultMessage: (args) => `${args?.property} must be a date from 0001-01-01 to 9999-12-31`,
    },
  });
}

/** An ISO 8601 date-time string turned into a `Date` of years 1 to 9999: `ToDate`, `@IsDate()` and the range check. */
export function RequiredDate(): PropertyDecorator {
  return stacked(ToDate(), IsDate(), DateInRange());
}

/** `@IfPresent()` and `@RequiredDate()`. */
export function OptionalDate(): PropertyDecorator {
  return stacked(IfPresent(), RequiredDate());
}
