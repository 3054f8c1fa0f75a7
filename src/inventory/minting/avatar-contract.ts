import { Contract, Interface, keccak256, toUtf8Bytes, ZeroAddress, type Provider } from 'ethers';

/** The part of contracts/AvatarNFT.sol the service calls. */
export const AVATAR_NFT_ABI = [
  'function mint(address to, uint256 tokenId, string uri)',
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function exists(uint256 tokenId) view returns (bool)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function owner() view returns (address)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
] as const;

export const avatarNftInterface = new Interface(AVATAR_NFT_ABI);

/**
 * The token id of a mint job: keccak256("cgs-avatar:" + jobId) as a decimal string. Fixed when the
 * job is created, so every (re)send of the job mints the same id and the contract refuses a second.
 */
export function tokenIdForMint(mintId: string): string {
  return BigInt(keccak256(toUtf8Bytes(`cgs-avatar:${mintId}`))).toString();
}

/** calldata of `mint(to, tokenId, uri)`. */
export function mintCalldata(to: string, tokenId: string, uri: string): string {
  return avatarNftInterface.encodeFunctionData('mint', [to, BigInt(tokenId), uri]);
}

/** The owner of `tokenId`, or null when it does not exist. */
export async function ownerOfOrNull(provider: Provider, contractAddress: string, tokenId: string): Promise<string | null> {
  const contract = new Contract(contractAddress, AVATAR_NFT_ABI, provider);
  const exists = (await contract.getFunction('exists')(BigInt(tokenId))) as boolean;
  if (!exists) return null;
  return (await contract.getFunction('ownerOf')(BigInt(tokenId))) as string;
}

/** Hash of the transaction that minted `tokenId` (its Transfer from the zero address), or null when the logs do not say. */
export async function findMintTransaction(provider: Provider, contractAddress: string, tokenId: string): Promise<string | null> {
  try {
    const contract = new Contract(contractAddress, AVATAR_NFT_ABI, provider);
    const events = await contract.queryFilter(contract.filters.Transfer(ZeroAddress, null, BigInt(tokenId)), 0, 'latest');
    return events[0]?.transactionHash ?? null;
  } catch {
    return null;
  }
}
