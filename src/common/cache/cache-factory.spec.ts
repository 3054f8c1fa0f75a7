import { AppConfig } from '../../config/app-config.js';
import { CacheFactory } from './cache-factory.js';
import { fakeDataSource, StoppedClock } from './cache.spec-kit.js';

describe('CacheFactory: how long values live', () => {
  let clock: StoppedClock;
  let factory: CacheFactory;
  let version: number;

  const factoryWith = (periods: { READ_CACHE_MS: number; BOARD_CACHE_MS: number }) =>
    new CacheFactory(Object.assign(new AppConfig(), periods), clock, fakeDataSource().dataSource);

  beforeEach(() => {
    clock = new StoppedClock();
    factory = factoryWith({ READ_CACHE_MS: 1000, BOARD_CACHE_MS: 10_000 });
    version = 1;
  });

  // Board values, and the values of a read cache whose every change is dropped (read one by one
  // and in groups): each kind lives as long.
  const readers: [string, () => () => Promise<unknown>][] = [
    [
      'board values',
      () => {
        const cache = factory.createRanged<{ v: number }>({ name: 'pages', max: 10 });
        return () => cache.get('b', 'k', null, async () => ({ value: { v: version }, lo: 1, hi: 2 }));
      },
    ],
    [
      'values dropped on every change',
      () => {
        const cache = factory.create({ name: 'own', max: 10, droppedOnEveryChange: true, load: async () => ({ v: version }) });
        return () => cache.get('u', 'k', null);
      },
    ],
    [
      'grouped values dropped on every change',
      () => {
        const cache = factory.create<never, Map<string, number>>({ name: 'own', max: 10, droppedOnEveryChange: true });
        return async () => ({ v: (await cache.getGrouped('u', ['k'], async () => new Map([['k', version]]))).get('k') });
      },
    ],
  ];

  describe.each(readers)('%s', (_kind, reader) => {
    it('READ_CACHE_MS while the bus is not listening', async () => {
      const read = reader();
      await read();
      version = 2;
      clock.ms += 999;
      expect(await read()).toEqual({ v: 1 });
      clock.ms += 2;
      expect(await read()).toEqual({ v: 2 });
    });

    it('BOARD_CACHE_MS while it listens; forgotten when it stops (drops may be missed from then on)', async () => {
      const read = reader();
      factory.setLinked(true);
      await read();
      version = 2;
      clock.ms += 9_999;
      expect(await read()).toEqual({ v: 1 });
      clock.ms += 2;
      expect(await read()).toEqual({ v: 2 });

      version = 3;
      factory.setLinked(false);
      expect(await read()).toEqual({ v: 3 });
      // Stored while it does not listen: READ_CACHE_MS.
      version = 4;
      clock.ms += 1001;
      expect(await read()).toEqual({ v: 4 });
    });

    it('never shorter than READ_CACHE_MS', async () => {
      factory = factoryWith({ READ_CACHE_MS: 5000, BOARD_CACHE_MS: 0 });
      factory.setLinked(true);
      const read = reader();
      await read();
      version = 2;
      clock.ms += 4999;
      expect(await read()).toEqual({ v: 1 });
    });
  });

  it('other read caches keep READ_CACHE_MS while the bus listens', async () => {
    const cache = factory.create({ name: 'lists', max: 10, load: async () => ({ v: version }) });
    factory.setLinked(true);
    await cache.get('t', 'k', null);
    version = 2;
    clock.ms += 1001;
    expect(await cache.get('t', 'k', null)).toEqual({ v: 2 });
  });

  it('a drop is remembered as long as the values it hides live', async () => {
    const cache = factory.create({ name: 'own', max: 10, droppedOnEveryChange: true, load: async () => ({ v: version }) });
    factory.setLinked(true);
    await cache.get('u', 'k', null);
    version = 2;
    cache.drop('u');
    expect(await cache.get('u', 'k', null)).toEqual({ v: 2 });
    // Past two READ_CACHE_MS, the value from before the drop still lives: it must stay hidden.
    clock.ms += 3000;
    version = 3;
    expect(await cache.get('u', 'k', null)).toEqual({ v: 2 });
  });
});
