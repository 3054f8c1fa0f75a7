import { isWriteConflict, retryWriteConflicts } from './write-conflict.js';

const conflict = (code: string) => Object.assign(new Error('conflict'), { driverError: { code } });

describe('retryWriteConflicts', () => {
  it('runs again after a deadlock or a serialization failure, and answers the run that succeeded', async () => {
    const codes = ['40P01', '40001'];
    let runs = 0;
    const r = await retryWriteConflicts(async () => {
      const code = codes[runs++];
      if (code) throw conflict(code);
      return 'done';
    });
    expect({ r, runs }).toEqual({ r: 'done', runs: 3 });
  });

  it('throws the last conflict after the attempts, and any other error at once', async () => {
    let runs = 0;
    await expect(retryWriteConflicts(async () => (runs++, Promise.reject(conflict('40P01'))), 2)).rejects.toMatchObject({
      driverError: { code: '40P01' },
    });
    expect(runs).toBe(2);
    runs = 0;
    await expect(retryWriteConflicts(async () => (runs++, Promise.reject(new Error('other'))))).rejects.toThrow('other');
    expect(runs).toBe(1);
  });

  it('knows a conflict by its SQLSTATE, on the error or on the driver error TypeORM wraps', () => {
    expect([conflict('40P01'), { code: '40001' }, conflict('23505'), new Error('x'), undefined].map(isWriteConflict)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
