import { parseBlockchains } from '../../config/blockchains.config.js';
import { loadConfig } from '../../config/app-config.js';
import { tokenIdForMint } from './avatar-contract.js';
import { mintBackoffMs } from './mint-worker.js';
import { isPermanent, PermanentMintError } from './mint-sender.js';

const KEY = `0x${'11'.repeat(32)}`;
const good = { rpcUrl: 'https://rpc.example.com', chainId: 8453, contractAddress: `0x${'ab'.repeat(20)}`, minterKey: KEY, enabled: true };

describe('BLOCKCHAINS configuration', () => {
  it('parses named chains, enabled by default', () => {
    const chains = parseBlockchains(JSON.stringify({ base: good, 'base-sepolia': { ...good, enabled: undefined } }));
    expect([...chains.keys()]).toEqual(['base', 'base-sepolia']);
    expect(chains.get('base-sepolia')?.enabled).toBe(true);
    expect(parseBlockchains(undefined).size).toBe(0);
  });

  it('rejects bad entries with a message that names the field and never the key', () => {
    const bad = [
      ['not json', /JSON object/],
      [JSON.stringify([good]), /JSON object/],
      [JSON.stringify({ Base: good }), /not a valid name/],
      [JSON.stringify({ base: { ...good, rpcUrl: 'ftp://x' } }), /rpcUrl/],
      [JSON.stringify({ base: { ...good, chainId: 0 } }), /chainId/],
      [JSON.stringify({ base: { ...good, contractAddress: '0x12' } }), /contractAddress/],
      [JSON.stringify({ base: { ...good, minterKey: 'secret-key-value' } }), /minterKey/],
      [JSON.stringify({ base: { ...good, enabled: 'yes' } }), /enabled/],
    ] as const;
    for (const [json, message] of bad) expect(() => parseBlockchains(json)).toThrow(message);
    const err = (() => {
      try {
        loadConfig({ BLOCKCHAINS: JSON.stringify({ base: { ...good, chainId: -1 } }) });
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(err).toMatch(/BLOCKCHAINS\.base\.chainId/);
    expect(err).not.toContain(KEY.slice(2));
  });
});

describe('mint worker rules', () => {
  it('backs off exponentially from 5 s up to 10 minutes', () => {
    expect([1, 2, 3, 4].map(mintBackoffMs)).toEqual([5000, 10000, 20000, 40000]);
    expect(mintBackoffMs(30)).toBe(600000);
  });

  it('derives a fixed 256-bit token id per job', () => {
    const id = tokenIdForMint('4f3c2b1a-0000-4000-8000-000000000001');
    expect(id).toBe(tokenIdForMint('4f3c2b1a-0000-4000-8000-000000000001'));
    expect(id).not.toBe(tokenIdForMint('4f3c2b1a-0000-4000-8000-000000000002'));
    expect(BigInt(id) < 2n ** 256n).toBe(true);
  });

  it('treats reverts and refusals as permanent, network trouble as transient', () => {
    expect(isPermanent(new PermanentMintError('x'))).toBe(true);
    expect(isPermanent(Object.assign(new Error('reverted'), { code: 'CALL_EXCEPTION' }))).toBe(true);
    expect(isPermanent(Object.assign(new Error('no funds'), { code: 'INSUFFICIENT_FUNDS' }))).toBe(true);
    expect(isPermanent(Object.assign(new Error('503'), { code: 'SERVER_ERROR' }))).toBe(false);
    expect(isPermanent(new Error('connect ECONNREFUSED'))).toBe(false);
  });
});
