import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser } from '../common/auth/auth.decorators.js';
import type { AuthUser } from '../common/auth/request-context.js';
import { ApiErrors } from '../common/errors/api-errors.decorator.js';
import { INPUT_ERRORS, SESSION_ERRORS } from '../common/errors/error-catalog.js';
import { LinkSocialDto, SocialDto, SocialIdParamDto, SocialTypeParamDto, UpdateSocialDto } from './dto/social.dto.js';
import { BUILT_IN_SOCIAL_ACCOUNT_TYPES } from './social-account-types.js';
import { SocialErrors } from './socials.errors.js';
import { SocialsService } from './socials.service.js';

const TYPES = `Account types: ${BUILT_IN_SOCIAL_ACCOUNT_TYPES.map((t) => `\`${t}\``).join(', ')}, plus any listed in the \`SOCIAL_ACCOUNT_TYPES\` setting.`;

@ApiTags('Socials and wallet')
@Controller('user')
export class SocialsController {
  constructor(private readonly socials: SocialsService) {}

  @Get('socials')
  @Authenticated()
  @ApiOperation({
    summary: "The current user's linked social accounts",
    description: 'Oldest link first. Tokens are never returned; `hasUserToken`/`hasRefreshToken` and `expiryDate` say what is stored.',
  })
  @ApiOkResponse({ type: SocialDto, isArray: true })
  @ApiErrors(...SESSION_ERRORS)
  listSocials(@CurrentUser() user: AuthUser): Promise<SocialDto[]> {
    return this.socials.listSocials(user.tenantId, user.id);
  }

  @Post('socials')
  @Authenticated()
  @ApiOperation({
    summary: 'Link a social account',
    description: `${TYPES} An account (type + subjectId) belongs to one user of the tenant: linking one another user holds is a 409; linking one the current user already holds updates it (same id). \`userToken\` and \`refreshToken\` are stored encrypted and never returned.`,
  })
  @ApiCreatedResponse({ type: SocialDto })
  @ApiErrors(...INPUT_ERRORS, SocialErrors.unsupported_account_type, ...SESSION_ERRORS, SocialErrors.social_account_taken)
  linkSocial(@CurrentUser() user: AuthUser, @Body() dto: LinkSocialDto): Promise<SocialDto> {
    return this.socials.linkSocial(user.tenantId, user.id, dto);
  }

  @Post('socials/update')
  @Authenticated()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Update a linked social account',
    description: "Partial: absent fields are kept, `null` clears an optional field. Another user's `socialId` is a 404.",
  })
  @ApiOkResponse({ type: SocialDto })
  @ApiErrors(...INPUT_ERRORS, ...SESSION_ERRORS, SocialErrors.social_not_found)
  updateSocial(@CurrentUser() user: AuthUser, @Body() dto: UpdateSocialDto): Promise<SocialDto> {
    return this.socials.updateSocial(user.tenantId, user.id, dto);
  }

  @Get('socials/:type')
  @Authenticated()
  @ApiOperation({
    summary: "The current user's linked accounts of one type",
    description: `${TYPES} Case-insensitive. An empty list when none is linked.`,
  })
  @ApiOkResponse({ type: SocialDto, isArray: true })
  @ApiErrors(...INPUT_ERRORS, SocialErrors.unsupported_account_type, ...SESSION_ERRORS)
  listSocialsOfType(@CurrentUser() user: AuthUser, @Param() p: SocialTypeParamDto): Promise<SocialDto[]> {
    return this.socials.listSocialsOfType(user.tenantId, user.id, p.type);
  }

  @Delete('socials/:id')
  @Authenticated()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    summary: 'Unlink a social account',
    description: "Deletes the account and its stored tokens. Another user's id is a 404.",
  })
  @ApiNoContentResponse({ description: 'Unlinked.' })
  @ApiErrors(...INPUT_ERRORS, ...SESSION_ERRORS, SocialErrors.social_not_found)
  async deleteSocial(@CurrentUser() user: AuthUser, @Param() p: SocialIdParamDto): Promise<void> {
    await this.socials.deleteSocial(user.tenantId, user.id, p.id);
  }
}
