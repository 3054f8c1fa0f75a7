import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, OptionalTenantId, Public, TenantFromCredential, TenantId } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { CommonErrors, INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { ClientAddress, LoginRateLimit } from './throttling/login-throttler.guard.js';
import { Metrics } from '../observability/metrics.js';
import { TenantErrors } from '../tenants/tenants.errors.js';
import { UserErrors } from '../users/users.errors.js';
import { AuthErrors } from './auth.errors.js';
import { PasswordLoginDto, RegisterPasswordDto } from './dto/password.dto.js';
import { CurrentSessionDto, LogoutDto, RefreshResultDto, RefreshSessionDto, SessionResultDto } from './dto/session.dto.js';
import { PasswordAuthService } from './password-auth.service.js';
import { SessionTokenService } from './session-token.service.js';

const tenantErrors = [...INPUT_ERRORS, TenantErrors.tenant_required, TenantErrors.unknown_tenant];

@ApiTags('Authentication')
@Controller('user')
export class AuthController {
  constructor(
    private readonly passwords: PasswordAuthService,
    private readonly sessions: SessionTokenService,
    private readonly metrics: Metrics,
  ) {}

  @Post('register/password')
  @Public()
  @LoginRateLimit()
  @ApiOperation({ summary: 'Register with a username and password', description: 'Creates the user and starts a session.' })
  @ApiCreatedResponse({ type: SessionResultDto })
  @ApiErrors(...tenantErrors, UserErrors.username_taken, UserErrors.handle_reserved, CommonErrors.too_many_requests)
  registerPassword(
    @TenantId() tenantId: string,
    @Body() dto: RegisterPasswordDto,
    @ClientAddress() client: string,
  ): Promise<SessionResultDto> {
    return this.metrics.login('register_password', this.passwords.register(tenantId, dto.username, dto.password, client));
  }

  @Post('auth/password/login')
  @Public()
  @LoginRateLimit()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Log in with a username and password', description: 'A wrong username and a wrong password give the same 401.' })
  @ApiOkResponse({ type: SessionResultDto })
  @ApiErrors(...tenantErrors, AuthErrors.invalid_credentials, CommonErrors.too_many_requests)
  passwordLogin(@TenantId() tenantId: string, @Body() dto: PasswordLoginDto, @ClientAddress() client: string): Promise<SessionResultDto> {
    return this.metrics.login('password', this.passwords.login(tenantId, dto.username, dto.password, client));
  }

  @Post('auth/refresh-session')
  @Public()
  @HttpCode(HttpStatus.OK)
  @TenantFromCredential()
  @ApiOperation({
    summary: 'Exchange a refresh token for a new session token',
    description:
      "The refresh token names its tenant: when nothing else names one (no session token, `X-Tenant-Id`, tenant domain, default or only tenant), the session is refreshed in the refresh token's tenant. When something does, it must be the token's (401 `refresh_token_invalid` otherwise).",
  })
  @ApiOkResponse({ type: RefreshResultDto })
  @ApiErrors(...tenantErrors, AuthErrors.refresh_token_invalid, CommonErrors.REFRESH_TOKEN_EXPIRED)
  refreshSession(@OptionalTenantId() tenantId: string | undefined, @Body() dto: RefreshSessionDto): Promise<RefreshResultDto> {
    return this.sessions.refresh(dto.refreshToken, tenantId);
  }

  @Get('auth/session')
  @Authenticated()
  @ApiOperation({
    summary: 'The current session (extension)',
    description: 'Who the session token belongs to. Not in the interface; useful to check a token.',
  })
  @ApiOkResponse({ type: CurrentSessionDto })
  @ApiErrors(...SESSION_ERRORS)
  currentSession(@CurrentUser() user: AuthUser): CurrentSessionDto {
    return { userId: user.id, tenantId: user.tenantId };
  }

  @Post('auth/logout')
  @Authenticated()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Log out: end a session (extension)',
    description:
      'Ends the session of the given refresh token of the current user (the refresh token and every session token issued for that login), or every session of the user with `all: true`. ' +
      'Every instance refuses the ended session tokens within about a second.',
  })
  @ApiNoContentResponse({ description: 'Ended (or already ended).' })
  @ApiErrors(...INPUT_ERRORS, ...SESSION_ERRORS)
  async logout(@CurrentUser() user: AuthUser, @Body() dto: LogoutDto): Promise<void> {
    await this.sessions.revoke(user.id, dto.all ? undefined : dto.refreshToken);
  }
}
