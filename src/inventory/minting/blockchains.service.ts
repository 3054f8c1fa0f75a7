import { Injectable } from '@nestjs/common';
import { type BlockchainConfig, parseBlockchains } from '../../config/blockchains.config.js';
import { AppConfig } from '../../config/app-config.js';
import { DomainError } from '../../common/errors/domain-error.js';
import { InventoryErrors } from '../inventory.errors.js';

/** The blockchains of configuration `BLOCKCHAINS`, by name. Never exposes the minter key. */
@Injectable()
export class BlockchainsService {
  private readonly chains: Map<string, BlockchainConfig>;

  constructor(config: AppConfig) {
    this.chains = parseBlockchains(config.BLOCKCHAINS);
  }

  /** The enabled blockchain `name`; 400 `unknown_blockchain` when unknown or disabled. */
  enabled(name: string): BlockchainConfig {
    const chain = this.chains.get(name.trim().toLowerCase());
    if (!chain || !chain.enabled)
      throw new DomainError(InventoryErrors.unknown_blockchain, `"${name.slice(0, 32)}" is not an enabled blockchain`, {
        available: this.names(),
      });
    return chain;
  }

  /** The configuration of `name`, enabled or not (the worker finishes jobs of a chain disabled after they were queued). */
  find(name: string): BlockchainConfig | undefined {
    return this.chains.get(name);
  }

  /** Names of the enabled blockchains. */
  names(): string[] {
    return [...this.chains.values()]
      .filter((c) => c.enabled)
      .map((c) => c.name)
      .sort();
  }
}
