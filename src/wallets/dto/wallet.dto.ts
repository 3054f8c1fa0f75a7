import { ApiProperty } from '@nestjs/swagger';

/** A blockchain wallet of the user. */
export class WalletDto {
  /** The address: a Sui zkLogin address (`0x` + 64 hex) or a checksummed EVM address. */
  @ApiProperty({ example: '0x8f3a6c1b2d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccddeeff' })
  address: string;

  /** `sui` for zkLogin wallets, `evm:<chainId>` for SIWE wallets. */
  @ApiProperty({ example: 'sui' })
  chain: string;

  /** The login the wallet is linked to: `providerA` or `providerD` (zkLogin) or `siwe`. */
  @ApiProperty({ example: 'providerA' })
  provider: string;

  @ApiProperty({ format: 'date-time', example: '2025-01-31T12:00:00.000Z' })
  createdAt: string;
}
