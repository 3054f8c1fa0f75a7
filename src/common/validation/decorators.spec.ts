import 'reflect-metadata';
import { Body, Controller, Post } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ApiProperty, DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { plainToInstance, Type } from 'class-transformer';
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
  ValidateIf,
  ValidateNested,
  type ValidationError,
  validateSync,
} from 'class-validator';
import {
  HttpUrl,
  IsUuid,
  NOT_BLANK_DOC,
  NotBlank,
  OptionalDate,
  OptionalInt,
  OptionalLabels,
  OptionalNestedList,
  OptionalText,
  OptionalUrl,
  OptionalUuids,
  RequiredDate,
  RequiredText,
} from './decorators.js';
import { ToDate } from './transforms.js';

const TAG = /^[a-z]+$/;

class Link {
  @RequiredText({ max: 64 })
  label: string;
}

/** The stacks the combined decorators replace, written out. */
class Stacks {
  @IsString()
  @Length(1, 200)
  name: string;

  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @MaxLength(5000)
  description?: string;

  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Length(1, 64)
  communityId?: string;

  @IsUrl({ protocols: ['https', 'http'], require_protocol: true })
  @MaxLength(2048)
  url: string;

  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true })
  @MaxLength(2048)
  imageUrl?: string | null;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  totalSupply?: number | null;

  @ValidateIf((_, v) => v !== undefined)
  @IsArray()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true })
  requirementIds?: string[];

  @ToDate()
  @IsDate()
  startsAt: Date;

  @ValidateIf((_, v) => v !== undefined)
  @ToDate()
  @IsDate()
  endsAt?: Date;

  @ValidateIf((_, v) => v !== undefined)
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Length(1, 64, { each: true })
  @Matches(TAG, { each: true })
  tags?: string[];

  @ValidateIf((_, v) => v !== undefined)
  @IsArray()
  @ArrayMaxSize(2)
  @ValidateNested({ each: true })
  @Type(() => Link)
  links?: Link[];
}

class Combined {
  @RequiredText({ max: 200 })
  name: string;

  @OptionalText({ max: 5000 })
  description?: string;

  @OptionalText({ min: 1, max: 64 })
  communityId?: string;

  @HttpUrl()
  url: string;

  @OptionalUrl({ nullable: true })
  imageUrl?: string | null;

  @OptionalInt({ min: 0, max: 1_000_000_000, nullable: true })
  totalSupply?: number | null;

  @OptionalUuids({ max: 20 })
  requirementIds?: string[];

  @RequiredDate()
  startsAt: Date;

  @OptionalDate()
  endsAt?: Date;

  @OptionalLabels(TAG)
  tags?: string[];

  @OptionalNestedList(() => Link, { max: 2 })
  links?: Link[];
}

/** The transformed body and the messages in the order the 400 lists them, as text (keeps key order; an invalid Date is null). */
const check = (cls: new () => object, body: Record<string, unknown>) => {
  const instance = plainToInstance(cls, body);
  const messages = (errors: ValidationError[]): unknown[] =>
    errors.map((e) => [e.property, Object.entries(e.constraints ?? {}), messages(e.children ?? [])]);
  return JSON.stringify({ instance, errors: messages(validateSync(instance)) });
};

const valid = {
  name: 'Space Pirates',
  url: 'https://example.com/',
  startsAt: '2025-06-01T12:00:00.000Z',
};

describe('combined validation decorators', () => {
  it.each([
    ['a valid body', valid],
    ['with the lists', { ...valid, tags: ['a', 'b'], links: [{ label: 'Discord' }] }],
    [
      'null in every optional field',
      {
        ...valid,
        description: null,
        communityId: null,
        imageUrl: null,
        totalSupply: null,
        requirementIds: null,
        endsAt: null,
        tags: null,
        links: null,
      },
    ],
    [
      'every field wrong',
      {
        name: '',
        description: 7,
        communityId: '',
        url: 'ftp://example.com',
        imageUrl: `https://example.com/${'a'.repeat(2048)}`,
        totalSupply: -1.5,
        requirementIds: ['x', ...Array.from({ length: 20 }, () => '3b241101-e2bb-4255-8caf-4136c566a962')],
        startsAt: 'soon',
        endsAt: 'later',
        tags: ['', 'A', ...Array.from({ length: 20 }, () => 'x')],
        links: [{ label: '' }, {}, { label: 'x' }],
      },
    ],
    [
      'wrong types',
      {
        name: 5,
        description: 'x'.repeat(5001),
        communityId: 'x'.repeat(65),
        url: 5,
        imageUrl: 5,
        totalSupply: '3',
        requirementIds: 'x',
        endsAt: 5,
        tags: 'a',
        links: 'x',
      },
    ],
    ['nothing', {}],
    ['only the nullable fields null', { ...valid, imageUrl: null, totalSupply: null }],
  ])('validate and transform %s as the written stacks do (same 400 messages, same order)', (_, body) => {
    expect(check(Combined, body)).toBe(check(Stacks, body));
  });
});

describe('NotBlank', () => {
  class Named {
    @RequiredText({ max: 20 })
    @NotBlank()
    name: string;
  }
  const errors = (name: unknown) => validateSync(plainToInstance(Named, { name })).map((e) => Object.values(e.constraints ?? {}));

  it('refuses a name of white space only, and leaves other types to the type check', () => {
    expect(errors('  \t\n')).toEqual([['name must not be blank']]);
    // Invisible format characters (zero-width space, BOM) show nothing either.
    expect(errors('\u200b\u3000\ufeff')).toEqual([['name must not be blank']]);
    expect(errors('\u200bA')).toEqual([]);
    expect(errors(' Space Pirates ')).toEqual([]);
    expect(errors(5)).not.toContainEqual(expect.arrayContaining(['name must not be blank']));
  });
});

class Ids {
  @IsUuid()
  id: string;

  @IsOptional()
  @IsUuid(undefined, { message: 'other must be an id' })
  other?: string;

  @OptionalUuids({ max: 3 })
  ids?: string[];
}

describe('IsUuid and OptionalUuids', () => {
  const ID = '3B241101-E2BB-4255-8CAF-4136C566A962';

  it('keep a UUID sent in any case in lower case, one or a list', () => {
    const instance = plainToInstance(Ids, { id: ID, other: ID, ids: [ID, ID.toLowerCase()] });
    expect(validateSync(instance)).toEqual([]);
    expect(instance).toEqual({ id: ID.toLowerCase(), other: ID.toLowerCase(), ids: [ID.toLowerCase(), ID.toLowerCase()] });
  });

  it('refuse what is not a UUID with the messages of IsUUID, and leave other types to the validator', () => {
    const instance = plainToInstance(Ids, { id: 'NOT-AN-ID', other: 5, ids: [ID, 7] });
    const errors = validateSync(instance).map((e) => [e.property, Object.values(e.constraints ?? {})]);
    expect(errors).toEqual([
      ['id', ['id must be a UUID']],
      ['other', ['other must be an id']],
      ['ids', ['each value in ids must be a UUID']],
    ]);
    expect(instance).toMatchObject({ id: 'not-an-id', other: 5, ids: [ID.toLowerCase(), 7] });
  });
});

describe('the date range of RequiredDate and OptionalDate', () => {
  class Dates {
    @RequiredDate()
    startsAt: Date;

    @OptionalDate()
    endsAt?: Date;
  }
  const errors = (body: Record<string, unknown>) =>
    validateSync(plainToInstance(Dates, body)).map((e) => [e.property, Object.values(e.constraints ?? {})]);

  it.each([
    ['the earliest Date', '-271821-04-20T00:00:00.000Z'],
    ['year 0', '0000-12-31T23:59:59.999Z'],
    ['year 10000', '+010000-01-01T00:00:00.000Z'],
    ['the latest Date', '+275760-09-13T00:00:00.000Z'],
  ])('refuses %s, required or optional', (_, date) => {
    expect(errors({ startsAt: date, endsAt: date })).toEqual([
      ['startsAt', ['startsAt must be a date from 0001-01-01 to 9999-12-31']],
      ['endsAt', ['endsAt must be a date from 0001-01-01 to 9999-12-31']],
    ]);
  });

  it('takes the bounds, and leaves an invalid date to IsDate alone', () => {
    expect(errors({ startsAt: '0001-01-01T00:00:00.000Z', endsAt: '9999-12-31T23:59:59.999Z' })).toEqual([]);
    expect(errors({ startsAt: 'soon' })).toEqual([['startsAt', ['startsAt must be a Date instance']]]);
  });
});

describe('the schema the combined decorators document (@ApiProperty)', () => {
  class Dto {
    /** Written above a combined decorator, an @ApiProperty adds to what it documents. */
    @ApiProperty({ example: 'Space Pirates' })
    @RequiredText({ max: 200 })
    @NotBlank({ description: 'The name.' })
    name: string;

    @OptionalUrl()
    imageUrl?: string;

    @NotBlank()
    reason: string;

    @OptionalUuids({ max: 3 })
    ids?: string[];
  }

  @Controller('dto')
  class DtoController {
    @Post()
    create(@Body() _body: Dto): void {}
  }

  it('documents the bounds and formats the Swagger plugin reads from the written stacks, and NotBlank in the description', async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [DtoController] }).compile();
    const app = moduleRef.createNestApplication();
    await app.init();
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    await app.close();
    expect(document.components?.schemas?.Dto).toMatchObject({
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 200, example: 'Space Pirates', description: `The name. ${NOT_BLANK_DOC}` },
        imageUrl: { type: 'string', maxLength: 2048, format: 'uri' },
        reason: { type: 'string', description: NOT_BLANK_DOC },
        ids: { type: 'array', maxItems: 3 },
      },
    });
    expect(document.components?.schemas?.Dto).toHaveProperty('required', ['name', 'reason']);
  });
});
