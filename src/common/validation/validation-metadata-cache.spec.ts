import { getMetadataStorage, IsInt, IsString, Min, validateSync } from 'class-validator';
import { memoizeValidationMetadata } from './validation-metadata-cache.js';

describe('memoizeValidationMetadata', () => {
  memoizeValidationMetadata();
  const storage = getMetadataStorage();
  const fields = (o: object) =>
    validateSync(o, { forbidUnknownValues: true })
      .map((e) => `${e.property}:${Object.keys(e.constraints ?? {}).join(',')}`)
      .sort();

  class Base {
    @IsInt()
    @Min(1)
    n: unknown;
  }
  class Child extends Base {
    @IsString()
    s: unknown;
  }

  it('answers a repeated lookup with the same rules, inherited ones included', () => {
    const first = storage.getTargetValidationMetadatas(Child, '', true, false);
    expect(storage.getTargetValidationMetadatas(Child, '', true, false)).toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
    expect(first.map((m) => m.propertyName).sort()).toEqual(['n', 'n', 's']);
    // Other options are another answer.
    expect(storage.getTargetValidationMetadatas(Child, '', true, false, ['admin'])).not.toBe(first);

    expect(fields(Object.assign(new Child(), { n: 0, s: 1 }))).toEqual(['n:min', 's:isString']);
    expect(fields(Object.assign(new Child(), { n: 'x', s: 'ok' }))).toEqual(['n:min,isInt']);
    expect(fields(Object.assign(new Child(), { n: 2, s: 'ok' }))).toEqual([]);
  });

  it('forgets its answers when a rule is added, so a class decorated later is validated with every rule', () => {
    class Late {
      a: unknown;
      b: unknown;
    }
    IsInt()(Late.prototype, 'a');
    expect(fields(Object.assign(new Late(), { a: 1, b: 2 }))).toEqual([]);
    IsString()(Late.prototype, 'b');
    expect(fields(Object.assign(new Late(), { a: 1, b: 2 }))).toEqual(['b:isString']);
  });
});
