import { Injectable } from '@nestjs/common';
import { JsonRpcProvider, keccak256, Wallet, type TransactionReceipt } from 'ethers';
import type { BlockchainConfig } from '../../config/blockchains.config.js';
import { findMintTransaction, mintCalldata, ownerOfOrNull } from './avatar-contract.js';

/** A failure that retrying cannot fix (the job is marked failed at once). */
export class PermanentMintError extends Error {
  override name = 'PermanentMintError';
}

/** What the sender needs of a job. */
export interface MintJob {
  id: string;
  recipient: string;
  tokenId: string;
  tokenUri: string;
  rawTx: string | null;
  txHash: string | null;
}

export interface SignedTransaction {
  rawTx: string;
  txHash: string;
  nonce: number;
}

const RECEIPT_POLL_MS = 200;

/** ethers codes and messages that mean "this transaction (or one with its nonce) is already known". */
function isAlreadyKnown(e: unknown): boolean {
  const err = e as { code?: string; message?: string; shortMessage?: string };
  return (
    err.code === 'NONCE_EXPIRED' ||
    /already known|known transaction|nonce too low|nonce has already been used|replacement transaction underpriced/i.test(
      `${err.message ?? ''} ${err.shortMessage ?? ''}`,
    )
  );
}

/** Reverts and refusals of the node that another attempt will not change. */
export function isPermanent(e: unknown): boolean {
  if (e instanceof PermanentMintError) return true;
  const code = (e as { code?: string }).code;
  return code === 'CALL_EXCEPTION' || code === 'INSUFFICIENT_FUNDS' || code === 'INVALID_ARGUMENT';
}

/**
 * Sends the mint transaction of a job so that the job can never produce two tokens, whatever
 * crashes in between:
 *
 * 1. A transaction signed earlier (`rawTx`) is looked up by hash, re-broadcast if the node does
 *    not know it, and awaited. Its nonce taken by another transaction means it can never be mined.
 * 2. Otherwise (or when that transaction reverted or died) the chain is asked whether the job's
 *    token already exists: if it belongs to the recipient, the job is done (a send whose
 *    recording was lost); if to anyone else, the job fails.
 * 3. Only then a new transaction is signed, handed to `persist` (which must commit it) and then
 *    broadcast. Even two transactions of one job cannot mint twice: the token id is fixed.
 */
@Injectable()
export class MintSender {
  async send(
    job: MintJob,
    chain: BlockchainConfig,
    receiptTimeoutMs: number,
    persist: (signed: SignedTransaction) => Promise<void>,
  ): Promise<{ txHash: string | null }> {
    const provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, { staticNetwork: true, batchMaxCount: 1, cacheTimeout: -1 });
    try {
      if (job.rawTx && job.txHash) {
        const receipt = await this.resume(provider, job.rawTx, job.txHash, receiptTimeoutMs);
        if (receipt?.status === 1) return { txHash: receipt.hash };
      }
      const owner = await ownerOfOrNull(provider, chain.contractAddress, job.tokenId);
      if (owner !== null) {
        if (owner.toLowerCase() !== job.recipient.toLowerCase())
          throw new PermanentMintError(`token ${job.tokenId} already belongs to ${owner}`);
        return { txHash: (await findMintTransaction(provider, chain.contractAddress, job.tokenId)) ?? job.txHash };
      }

      const signer = new Wallet(chain.minterKey, provider);
      const data = mintCalldata(job.recipient, job.tokenId, job.tokenUri);
      const [nonce, fees, gas] = await Promise.all([
        provider.getTransactionCount(signer.address, 'pending'),
        provider.getFeeData(),
        provider.estimateGas({ from: signer.address, to: chain.contractAddress, data }),
      ]);
      const rawTx = await signer.signTransaction({
        type: fees.maxFeePerGas !== null ? 2 : 0,
        chainId: chain.chainId,
        to: chain.contractAddress,
        data,
        nonce,
        gasLimit: (gas * 12n) / 10n,
        ...(fees.maxFeePerGas !== null
          ? { maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas ?? 0n }
          : { gasPrice: fees.gasPrice ?? 0n }),
      });
      const txHash = keccak256(rawTx);
      await persist({ rawTx, txHash, nonce });
      const receipt = await this.resume(provider, rawTx, txHash, receiptTimeoutMs);
      if (!receipt) throw new Error(`transaction ${txHash} was dropped before it was mined`);
      if (receipt.status === 1) return { txHash };
      const ownerAfter = await ownerOfOrNull(provider, chain.contractAddress, job.tokenId);
      if (ownerAfter?.toLowerCase() === job.recipient.toLowerCase())
        return { txHash: await findMintTransaction(provider, chain.contractAddress, job.tokenId) };
      throw new PermanentMintError(`transaction ${txHash} reverted`);
    } finally {
      provider.destroy();
    }
  }

  /**
   * The receipt of a signed transaction: broadcast (again) unless mined, then awaited. null when it
   * can never be mined (its nonce went to another transaction). Throws when it is still pending
   * at the timeout (retried later with the same bytes).
   */
  private async resume(provider: JsonRpcProvider, rawTx: string, txHash: string, timeoutMs: number): Promise<TransactionReceipt | null> {
    const mined = await provider.getTransactionReceipt(txHash);
    if (mined) return mined;
    let nonceTaken = false;
    try {
      await provider.broadcastTransaction(rawTx);
    } catch (e) {
      if (!isAlreadyKnown(e)) throw e;
      nonceTaken = !/already known|known transaction/i.test(String((e as Error).message));
    }
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const receipt = await provider.getTransactionReceipt(txHash);
      if (receipt) return receipt;
      if (nonceTaken && !(await provider.getTransaction(txHash))) return null;
      if (Date.now() >= deadline) throw new Error(`no receipt for ${txHash} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, RECEIPT_POLL_MS));
    }
  }
}
