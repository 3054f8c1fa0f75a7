import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Contract, FetchRequest, getAddress, JsonRpcProvider, Network } from 'ethers';
import { parseBlockchains } from '../../../config/blockchains.config.js';
import { AppConfig } from '../../../config/app-config.js';
import { WalletsService } from '../../../wallets/wallets.service.js';
import type { OnchainSettings } from '../task-kinds.js';
import { parseQuestChains } from '../../../config/quest-chains.config.js';
import { done, missing, TaskVerifier, unavailable, type Verdict, type VerifyInput } from './verifier.js';

const BALANCE_OF = ['function balanceOf(address) view returns (uint256)'];

/**
 * `onchain`: read-only calls through the configured chains (QUEST_CHAINS, and the BLOCKCHAINS of
 * the avatar mints), with the player's EVM wallets (their SIWE logins): an ERC-20's or ERC-721's
 * `balanceOf` at least `minBalance`, or a view function whose result equals `equals` or is at
 * least `atLeast`. Each call is bounded by QUEST_VERIFIER_TIMEOUT_MS.
 */
@Injectable()
export class OnchainVerifier extends TaskVerifier implements OnModuleDestroy {
  readonly kind = 'onchain' as const;
  override readonly external = true;
  private readonly providers = new Map<string, JsonRpcProvider>();
  private readonly chains: Map<string, { rpcUrl: string; chainId: number }>;

  constructor(
    private readonly wallets: WalletsService,
    private readonly config: AppConfig,
  ) {
    super();
    this.chains = new Map([...parseBlockchains(config.BLOCKCHAINS)].map(([name, c]) => [name, { rpcUrl: c.rpcUrl, chainId: c.chainId }]));
    for (const [name, c] of parseQuestChains(config.QUEST_CHAINS)) this.chains.set(name, c);
  }

  /** Whether a task may name this chain. */
  knows(chain: string): boolean {
    return this.chains.has(chain);
  }

  onModuleDestroy(): void {
    for (const p of this.providers.values()) p.destroy();
  }

  async verify(input: VerifyInput): Promise<Verdict> {
    const s = input.task.settings as OnchainSettings;
    const wallets = (await this.wallets.listUserWallets(input.tenantId, input.userId)).filter((w) => w.chain.startsWith('evm:'));
    if (wallets.length === 0) return missing('Sign in with an Ethereum wallet (SIWE) first');
    const provider = this.provider(s.chain);
    if (!provider) return unavailable(`The chain ${s.chain} is not configured`);
    try {
      for (const w of wallets) if (await this.holds(provider, s, getAddress(w.address))) return done();
    } catch {
      return unavailable(`The ${s.chain} chain did not answer; try again in a moment`);
    }
    return missing(
      s.standard === 'call'
        ? 'Your wallet does not meet this quest’s on-chain condition yet'
        : `Hold at least ${s.minBalance ?? '1'} of ${s.contract}`,
    );
  }

  private async holds(provider: JsonRpcProvider, s: OnchainSettings, wallet: string): Promise<boolean> {
    if (s.standard !== 'call') {
      const balance = (await new Contract(s.contract, BALANCE_OF, provider).getFunction('balanceOf').staticCall(wallet)) as bigint;
      return balance >= BigInt(s.minBalance ?? '1');
    }
    const contract = new Contract(s.contract, [s.signature!], provider);
    const fn = contract.interface.getFunction(s.signature!.slice('function '.length, s.signature!.indexOf('(')))!;
    const args = s.args.map((a) => (a === '{wallet}' ? wallet : a));
    const result = (await contract.getFunction(fn.name).staticCall(...args)) as unknown;
    const text = typeof result === 'string' && /^0x[0-9a-fA-F]{40}$/.test(result) ? result.toLowerCase() : String(result);
    if (s.equals !== null) return text === (/^0x[0-9a-fA-F]{40}$/.test(s.equals) ? s.equals.toLowerCase() : s.equals);
    if (s.atLeast !== null) return /^-?\d+$/.test(text) && BigInt(text) >= BigInt(s.atLeast);
    return result === true;
  }

  private provider(chain: string): JsonRpcProvider | null {
    const c = this.chains.get(chain);
    if (!c) return null;
    let p = this.providers.get(chain);
    if (!p) {
      const request = new FetchRequest(c.rpcUrl);
      request.timeout = this.config.QUEST_VERIFIER_TIMEOUT_MS;
      p = new JsonRpcProvider(request, Network.from(c.chainId), { staticNetwork: true, batchMaxCount: 1 });
      this.providers.set(chain, p);
    }
    return p;
  }
}
