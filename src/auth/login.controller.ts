import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { generateNonce } from 'siwe';
import { Public, TenantId } from '../common/auth/auth.decorators.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS } from '../common/errors/error-catalog.js';
import { ClientAddress, LoginRateLimit } from './throttling/login-throttler.guard.js';
import { Metrics } from '../observability/metrics.js';
import { TenantErrors } from '../tenants/tenants.errors.js';
import { UserErrors } from '../users/users.errors.js';
import { AuthErrors } from './auth.errors.js';
import { CredentialLoginDto, SiweLoginDto, SiweNonceDto, TokenLoginDto } from './dto/login.dto.js';
import { SessionResultDto } from './dto/session.dto.js';
import { ProviderACredentialService } from './provider-a-credential.service.js';
import { SiweLoginService } from './siwe-login.service.js';
import { TokenLoginService } from './token-login.service.js';

const common = [
  ...INPUT_ERRORS,
  TenantErrors.tenant_required,
  TenantErrors.unknown_tenant,
  UserErrors.self_referral,
  CommonErrors.too_many_requests,
];
const tokenErrors = [
  AuthErrors.login_token_invalid,
  AuthErrors.login_token_algorithm,
  AuthErrors.login_token_expired,
  AuthErrors.login_token_not_yet_valid,
  AuthErrors.login_token_claims,
  AuthErrors.login_token_replayed,
  AuthErrors.login_token_provider,
  AuthErrors.tenant_secret_unusable,
];
const TOKEN_DOC =
  'The `token` is the JWE of spec rule 2, encrypted with the tenant shared secret (hex, 32 bytes); each token logs in once. ' +
  'The first login of `(provider, subjectId)` creates the user (handle from the claim, made unique) and records the referrer. ' +
  'The body `accessToken` and `referrerHandle` take precedence over the claims of the same name. ' +
  'An optional `provider` claim names the endpoint the token is for (`providerB`, `providerC`, `providerA` for zkLogin, `providerD`): a token naming another one is refused (401 `login_token_provider`).';

/** The OAuth, zkLogin and SIWE logins. Every one answers the session result. */
@ApiTags('Authentication')
@Controller('user/auth')
export class LoginController {
  constructor(
    private readonly tokens: TokenLoginService,
    private readonly credentials: ProviderACredentialService,
    private readonly siwe: SiweLoginService,
    private readonly metrics: Metrics,
  ) {}

  @Post('providerA/login')
  @Public()
  @LoginRateLimit()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Log in with a providerA credential',
    description:
      "The credential is providerA's OpenID Connect ID token, verified against its JWKS (issuer, audience = tenant setting providerAClientId, expiry). Not configured: 503 provider_not_configured.",
  })
  @ApiOkResponse({ type: SessionResultDto })
  @ApiErrors(
    ...common,
    AuthErrors.credential_invalid,
    AuthErrors.credential_expired,
    AuthErrors.provider_not_configured,
    AuthErrors.jwks_unavailable,
  )
  providerALogin(
    @TenantId() tenantId: string,
    @Body() dto: CredentialLoginDto,
    @ClientAddress() client: string,
  ): Promise<SessionResultDto> {
    return this.metrics.login('providerA', this.credentials.login(tenantId, dto, client));
  }

  @Post('providerB/login')
  @Public()
  @LoginRateLimit()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Log in with a providerB token', description: TOKEN_DOC })
  @ApiOkResponse({ type: SessionResultDto })
  @ApiErrors(...common, ...tokenErrors)
  providerBLogin(@TenantId() tenantId: string, @Body() dto: TokenLoginDto, @ClientAddress() client: string): Promise<SessionResultDto> {
    return this.metrics.login('providerB', this.tokens.tokenLogin(tenantId, 'providerB', dto, client));
  }

  @Post('providerC/login')
  @Public()
  @LoginRateLimit()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Log in with a providerC token', description: TOKEN_DOC })
  @ApiOkResponse({ type: SessionResultDto })
  @ApiErrors(...common, ...tokenErrors)
  providerCLogin(@TenantId() tenantId: string, @Body() dto: TokenLoginDto, @ClientAddress() client: string): Promise<SessionResultDto> {
    return this.metrics.login('providerC', this.tokens.tokenLogin(tenantId, 'providerC', dto, client));
  }

  @Post('providerA/zklogin')
  @Public()
  @LoginRateLimit()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'zkLogin with providerA',
    description: `${TOKEN_DOC} The \`idToken\` claim is required; the first zkLogin creates the user's Sui zkLogin wallet (GET /v1/user/wallet).`,
  })
  @ApiOkResponse({ type: SessionResultDto })
  @ApiErrors(...common, ...tokenErrors, AuthErrors.id_token_invalid, AuthErrors.primary_account_required)
  providerAZkLogin(@TenantId() tenantId: string, @Body() dto: TokenLoginDto, @ClientAddress() client: string): Promise<SessionResultDto> {
    return this.metrics.login('zklogin_providerA', this.tokens.zkLogin(tenantId, 'providerA', dto, client));
  }

  @Post('providerD/zklogin')
  @Public()
  @LoginRateLimit()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'zkLogin with providerD',
    description: `${TOKEN_DOC} The \`idToken\` claim is required; the first zkLogin creates the user's Sui zkLogin wallet (GET /v1/user/wallet).`,
  })
  @ApiOkResponse({ type: SessionResultDto })
  @ApiErrors(...common, ...tokenErrors, AuthErrors.id_token_invalid, AuthErrors.primary_account_required)
  providerDZkLogin(@TenantId() tenantId: string, @Body() dto: TokenLoginDto, @ClientAddress() client: string): Promise<SessionResultDto> {
    return this.metrics.login('zklogin_providerD', this.tokens.zkLogin(tenantId, 'providerD', dto, client));
  }

  @Post('siwe/login')
  @Public()
  @LoginRateLimit()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Sign-In With Ethereum',
    description:
      'An EIP-4361 message for an allowed origin and chain of the tenant, issued in the last 10 minutes, with a nonce never used before in the tenant (from GET /v1/user/auth/siwe/nonce or chosen by the client), and its signature. The identity is the checksummed address; its wallet is that address on the message chain.',
  })
  @ApiOkResponse({ type: SessionResultDto })
  @ApiErrors(
    ...common,
    AuthErrors.siwe_message_malformed,
    AuthErrors.siwe_domain_not_allowed,
    AuthErrors.siwe_chain_not_allowed,
    AuthErrors.siwe_message_expired,
    AuthErrors.siwe_message_not_yet_valid,
    AuthErrors.siwe_nonce_replayed,
    AuthErrors.siwe_signature_invalid,
  )
  siweLogin(@TenantId() tenantId: string, @Body() dto: SiweLoginDto, @ClientAddress() client: string): Promise<SessionResultDto> {
    return this.metrics.login('siwe', this.siwe.login(tenantId, dto, client));
  }

  @Get('siwe/nonce')
  @Public()
  @ApiOperation({
    summary: 'A fresh SIWE nonce (extension)',
    description: 'Optional helper: a random nonce for a SIWE message. Nothing is stored; the nonce becomes used when a login accepts it.',
  })
  @ApiOkResponse({ type: SiweNonceDto })
  @ApiErrors(TenantErrors.tenant_required, TenantErrors.unknown_tenant)
  getSiweNonce(): SiweNonceDto {
    return { nonce: generateNonce() };
  }
}
