import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';
import { LOGIN_TOKEN_MAX_LENGTH } from '../login-token.js';

/** The `referrerHandle` of every login: recorded as the sign-up referrer when the login creates the user. */
abstract class ReferrerDto {
  /**
   * Handle of the user who referred this one. Used only when this login creates the user; an
   * unknown handle is ignored, the user's own handle is refused (400 self_referral).
   */
  @ApiPropertyOptional({ example: 'ada_lovelace', maxLength: 64 })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  referrerHandle?: string;
}

/** providerB, providerC and the zkLogins. */
export class TokenLoginDto extends ReferrerDto {
  /**
   * The encrypted OAuth token: a compact JWE (`alg: dir`, `enc: A256GCM`) made with the tenant
   * shared secret, holding `_nonce`, `subjectId`, `handle`, `idToken`, `accessToken`,
   * `refreshToken`, `referrerHandle`, `iat`, `exp` (at most 300 s after `iat`). Usable once.
   */
  @ApiProperty({
    example: 'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..bXlpdi1ub25jZTEy.Y2lwaGVydGV4dA.dGFnLXRhZy10YWctdGFn',
    maxLength: LOGIN_TOKEN_MAX_LENGTH,
  })
  @IsString()
  @Length(1, LOGIN_TOKEN_MAX_LENGTH)
  token: string;

  /** The provider access token; when given it replaces the token's `accessToken` claim (stored encrypted, never returned). */
  @ApiPropertyOptional({ example: 'ya29.a0AfH6SMB...', maxLength: 8192 })
  @IsOptional()
  @IsString()
  @Length(1, 8192)
  accessToken?: string;
}

/** providerA credential login. */
export class CredentialLoginDto extends ReferrerDto {
  /** providerA's signed OpenID Connect ID token (JWT), `aud` = the tenant's providerA client id. */
  @ApiProperty({ example: 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImtleS0xIn0.eyJpc3MiOiIuLi4ifQ.c2ln', maxLength: 8192 })
  @IsString()
  @Length(1, 8192)
  credential: string;
}

export class SiweLoginDto extends ReferrerDto {
  /** The EIP-4361 message, exactly as signed. */
  @ApiProperty({
    example:
      'game.example.com wants you to sign in with your Ethereum account:\n0x71C7656EC7ab88b098defB751B7401B5f6d8976F\n\nSign in\n\nURI: https://game.example.com\nVersion: 1\nChain ID: 1\nNonce: k3Jd8fL2pQ9sT4vX\nIssued At: 2025-01-31T12:00:00.000Z',
    maxLength: 4096,
  })
  @IsString()
  @Length(1, 4096)
  message: string;

  /** The EIP-191 `personal_sign` signature of `message` (0x + 130 hex). */
  @ApiProperty({ example: '0x5f2c…1b', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  signature: string;
}

export class SiweNonceDto {
  /** A fresh random nonce (alphanumeric) to put in a SIWE message. Any unused nonce of at least 8 alphanumeric characters works too. */
  @ApiProperty({ example: 'k3Jd8fL2pQ9sT4vX' })
  nonce: string;
}
