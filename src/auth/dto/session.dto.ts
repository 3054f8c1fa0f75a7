import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, ValidateIf } from 'class-validator';

export class RefreshSessionDto {
  /** The refresh token of an earlier login. */
  @ApiProperty({ example: 'rt_Zb3k9y0Qf1m2wq8d6r4t5y7u8i9o0p1a2s3d4f5g6h7' })
  @IsString()
  @Length(1, 256)
  refreshToken: string;
}

/** Returned by every login and registration. */
export class SessionResultDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  /** Signed JWT, valid 10 minutes. Send it as `Authorization: Bearer <sessionToken>`. */
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0aWQiOiIuLi4ifQ.c2lnbmF0dXJl' })
  sessionToken: string;

  /** Opaque, valid 30 days. Exchange it for a new session token at `POST /v1/user/auth/refresh-session`. */
  @ApiProperty({ example: 'rt_Zb3k9y0Qf1m2wq8d6r4t5y7u8i9o0p1a2s3d4f5g6h7' })
  refreshToken: string;
}

export class RefreshResultDto {
  /** A new session token, valid 10 minutes. */
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0aWQiOiIuLi4ifQ.c2lnbmF0dXJl' })
  sessionToken: string;
}

export class CurrentSessionDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ format: 'uuid', example: 'af36c48f-16d9-4540-9739-91b185fe8d3e' })
  tenantId: string;
}

export class LogoutDto {
  /** The refresh token of the session to end. Required unless `all` is true. */
  @ValidateIf((o: LogoutDto) => !o.all)
  @IsString()
  @Length(1, 256)
  refreshToken?: string;

  /** End every session of the current user (log out everywhere). */
  @IsOptional()
  @IsBoolean()
  all?: boolean;
}
