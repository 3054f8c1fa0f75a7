import { pageRequest, toPage } from './pagination.js';

describe('pagination', () => {
  it('defaults to page 1 of 20', () => {
    expect(pageRequest({})).toEqual({ page: 1, limit: 20, offset: 0 });
  });

  it('computes the offset and whether a next page exists', () => {
    const req = pageRequest({ page: 3, limit: 10 });
    expect(req.offset).toBe(20);
    expect(toPage(new Array(10).fill(0), 31, req).hasNextPage).toBe(true);
    expect(toPage(new Array(10).fill(0), 30, req).hasNextPage).toBe(false);
  });
});
