import { likeContaining, likePrefix } from './like.js';

describe('LIKE patterns', () => {
  it('take the wildcards and the escape character literally', () => {
    expect(likeContaining('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    expect(likePrefix('/v1/admin/%')).toBe('/v1/admin/\\%%');
    expect(likeContaining('plain')).toBe('%plain%');
  });
});
