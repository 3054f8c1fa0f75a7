import { AppConfig } from '../../config/app-config.js';
import { CacheFactory } from './cache-factory.js';
import { fakeDataSource, StoppedClock } from './cache.spec-kit.js';

describe('CacheFactory: how long board values live', () => {
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

  const reader = () => {
    const cache = factory.createRanged<{ v: number }>({ name: 'pages', max: 10 });
    return () => cache.get('b', 'k', null, async () => ({ value: { v: version }, lo: 1, hi: 2 }));
  };

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
