import { formatCursor, isSnapshot, parseCursor } from './stream-cursor.js';

describe('stream cursor', () => {
  it('reads back what it writes', () => {
    for (const c of [
      { snapshot: '1000:1005:1001,1003' },
      { snapshot: '7:7:' },
      { snapshot: '9:12:10', partial: { from: '5:8:6', delivered: 3 } },
    ])
      expect(parseCursor(formatCursor(c))).toEqual(c);
  });

  it.each([
    ['', 'empty'],
    ['42', 'a sequence number'],
    ['5:3:', 'xmin after xmax'],
    ['0:3:', 'xid 0'],
    ['3:9:9', 'an in-progress id at xmax'],
    ['3:9:2', 'an in-progress id below xmin'],
    ['3:9:5,4', 'in-progress ids out of order'],
    ['3:9:5,5', 'an in-progress id twice'],
    ['3:9:5,', 'a trailing comma'],
    ['99999999999999999999:99999999999999999999:', 'past 64 bits'],
    ['1:2:~x~1', 'a partial cursor whose batch began at no snapshot'],
    ['3:9:~1:2:~0', 'a partial cursor of nothing delivered'],
    ['3:9:~1:2:~1~1', 'too many parts'],
    [' 3:9:', 'a space'],
    ['3:9:\n', 'a line break'],
    [`1:2:${',1'.repeat(5000)}`, 'too long'],
  ])('refuses %j (%s)', (id) => {
    expect(parseCursor(id)).toBeNull();
  });

  it('checks snapshots', () => {
    expect(isSnapshot('1:1:')).toBe(true);
    expect(isSnapshot('1:10:2,3,9')).toBe(true);
    expect(isSnapshot('1:10:2,3,10')).toBe(false);
  });
});
