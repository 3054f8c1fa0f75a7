import { ValidateBy } from 'class-validator';

/**
 * `QUEST_CHAINS`: the EVM chains `onchain` tasks read, `{"<name>": {"rpcUrl": "...", "chainId": n}}`
 * (read-only: no key). The avatar mints' BLOCKCHAINS are readable too, under their names.
 */
export function parseQuestChains(json: string | undefined): Map<string, { rpcUrl: string; chainId: number }> {
  const out = new Map<string, { rpcUrl: string; chainId: number }>();
  if (json === undefined || json.trim() === '') return out;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('QUEST_CHAINS must be a JSON object');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('QUEST_CHAINS must be a JSON object');
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!/^[a-z0-9][a-z0-9_-]{0,31}$/.test(name)) throw new Error(`QUEST_CHAINS: "${name.slice(0, 40)}" is not a valid name`);
    const v = value as { rpcUrl?: unknown; chainId?: unknown } | null;
    if (typeof v?.rpcUrl !== 'string' || !/^https?:\/\/\S+$/.test(v.rpcUrl))
      throw new Error(`QUEST_CHAINS.${name}.rpcUrl must be an http(s) URL`);
    if (typeof v.chainId !== 'number' || !Number.isSafeInteger(v.chainId) || v.chainId < 1)
      throw new Error(`QUEST_CHAINS.${name}.chainId must be a positive integer`);
    out.set(name, { rpcUrl: v.rpcUrl, chainId: v.chainId });
  }
  return out;
}

/** class-validator rule for `QUEST_CHAINS`: the message says what is wrong. */
export function IsQuestChainsJson() {
  return ValidateBy({
    name: 'isQuestChainsJson',
    validator: {
      validate: (value: unknown) => {
        try {
          parseQuestChains(typeof value === 'string' ? value : undefined);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: (args) => {
        try {
          parseQuestChains(typeof args?.value === 'string' ? args.value : '{}[');
        } catch (e) {
          return (e as Error).message;
        }
        return 'QUEST_CHAINS is invalid';
      },
    },
  });
}
