import { registerDecorator, type ValidationOptions } from 'class-validator';

/** One blockchain the avatar can be minted on (configuration `BLOCKCHAINS`, by name). */
export interface BlockchainConfig {
  /** The name clients pass as `blockchain` (lowercase letters, digits, `-`, `_`). */
  name: string;
  /** JSON-RPC endpoint (http, https, ws or wss). */
  rpcUrl: string;
  chainId: number;
  /** The AvatarNFT contract (contracts/AvatarNFT.sol), owned by the minter key. */
  contractAddress: string;
  /** Private key (0x + 64 hex) of the contract owner. Never logged, never returned. */
  minterKey: string;
  enabled: boolean;
}

const NAME_RE = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/**
 * Parses `BLOCKCHAINS`: a JSON object `{ "<name>": { rpcUrl, chainId, contractAddress, minterKey,
 * enabled? } }`. Throws an Error naming the bad field (never echoing the key) when invalid.
 */
export function parseBlockchains(json: string | undefined): Map<string, BlockchainConfig> {
  const out = new Map<string, BlockchainConfig>();
  if (json === undefined || json.trim() === '') return out;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('BLOCKCHAINS must be a JSON object');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('BLOCKCHAINS must be a JSON object');
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!NAME_RE.test(name))
      throw new Error(`BLOCKCHAINS: "${name.slice(0, 40)}" is not a valid name (lowercase letters, digits, - and _)`);
    const v = value as Record<string, unknown> | null;
    if (typeof v !== 'object' || v === null) throw new Error(`BLOCKCHAINS.${name} must be an object`);
    const rpcUrl = v.rpcUrl;
    if (typeof rpcUrl !== 'string' || !/^(https?|wss?):\/\/\S+$/.test(rpcUrl))
      throw new Error(`BLOCKCHAINS.${name}.rpcUrl must be an http(s) or ws(s) URL`);
    const chainId = v.chainId;
    if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId < 1)
      throw new Error(`BLOCKCHAINS.${name}.chainId must be a positive integer`);
    const contractAddress = v.contractAddress;
    if (typeof contractAddress !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(contractAddress))
      throw new Error(`BLOCKCHAINS.${name}.contractAddress must be a 0x address`);
    const minterKey = v.minterKey;
    if (typeof minterKey !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(minterKey))
      throw new Error(`BLOCKCHAINS.${name}.minterKey must be a 0x-prefixed 32-byte hex private key`);
    const enabled = v.enabled ?? true;
    if (typeof enabled !== 'boolean') throw new Error(`BLOCKCHAINS.${name}.enabled must be a boolean`);
    out.set(name, { name, rpcUrl, chainId, contractAddress, minterKey, enabled });
  }
  return out;
}

/** class-validator rule for `BLOCKCHAINS`: the message says what is wrong, without the key. */
export function IsBlockchainsJson(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isBlockchainsJson',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          try {
            parseBlockchains(value);
            return true;
          } catch {
            return false;
          }
        },
        defaultMessage: (args) => {
          try {
            parseBlockchains(typeof args?.value === 'string' ? args.value : '{}[');
          } catch (e) {
            return (e as Error).message;
          }
          return 'BLOCKCHAINS is invalid';
        },
      },
    });
}
