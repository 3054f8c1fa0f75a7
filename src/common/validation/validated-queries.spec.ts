import { ValidatedQueries } from './validated-queries.js';

class ListQuery {
  limit?: number;
  filter?: { status: string[] };
}
class OtherQuery {
  limit?: number;
}

describe('ValidatedQueries', () => {
  it('gives back the DTO validated before from the same class and raw query, deeply frozen', () => {
    const memo = new ValidatedQueries();
    const raw = { limit: '5', filter: { status: ['live'] } };
    const { hit, key } = memo.lookup(ListQuery, raw);
    expect(hit).toBeUndefined();
    const dto = Object.assign(new ListQuery(), { limit: 5, filter: { status: ['live'] } });
    expect(memo.keep(ListQuery, key!, dto)).toBe(dto);

    const again = memo.lookup(ListQuery, { limit: '5', filter: { status: ['live'] } });
    expect(again.hit).toBe(dto);
    expect(again.hit).toBeInstanceOf(ListQuery);
    // Shared between requests: nobody can change it.
    expect(() => {
      (again.hit as ListQuery).limit = 6;
    }).toThrow(TypeError);
    expect(() => dto.filter?.status.push('ended')).toThrow(TypeError);
  });

  it('keeps DTOs apart by class and by raw value', () => {
    const memo = new ValidatedQueries();
    memo.keep(ListQuery, memo.lookup(ListQuery, { limit: '5' }).key!, Object.assign(new ListQuery(), { limit: 5 }));
    expect(memo.lookup(OtherQuery, { limit: '5' }).hit).toBeUndefined();
    expect(memo.lookup(ListQuery, { limit: '6' }).hit).toBeUndefined();
    expect(memo.lookup(ListQuery, { limit: ['5'] }).hit).toBeUndefined();
  });

  it('does not keep what it cannot key briefly', () => {
    const memo = new ValidatedQueries();
    expect(memo.lookup(ListQuery, { q: 'x'.repeat(3000) })).toEqual({});
  });
});
