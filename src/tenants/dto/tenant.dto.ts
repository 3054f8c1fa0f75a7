import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';
import { MAX_TENANT_DOMAINS } from '../tenants.service.js';

/** The tenant of the API key, with the domains assigned to it. */
export class TenantDto {
  @ApiProperty({ format: 'uuid', example: '1d95aa9a-5c43-4f4e-9a55-2f0f3c6f5e10' })
  id: string;

  @ApiProperty({ example: 'acme' })
  slug: string;

  @ApiProperty({ example: 'Acme Games' })
  name: string;

  /**
   * Host names on which a request without a session token or `X-Tenant-Id` runs in this tenant,
   * normalised: lower case, no port, no trailing dot, internationalised names as punycode.
   */
  @ApiProperty({ type: String, isArray: true, example: ['play.acme.gg'] })
  domains: string[];
}

export class SetTenantDomainsDto {
  /**
   * The tenant's whole list of domains (it replaces the current one; `[]` removes all). Each is a
   * host name (`play.acme.gg`, `bücher.example`); case, a port and a trailing dot are normalised
   * away. A domain of another tenant is 409 and nothing changes.
   */
  @ApiProperty({ type: String, isArray: true, example: ['play.acme.gg'], maxItems: MAX_TENANT_DOMAINS })
  @IsArray()
  @ArrayMaxSize(MAX_TENANT_DOMAINS)
  @IsString({ each: true })
  @MaxLength(300, { each: true })
  domains: string[];
}
