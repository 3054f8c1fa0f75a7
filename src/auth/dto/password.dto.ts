import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export class RegisterPasswordDto {
  /** 3–32 characters: letters, digits, `_`, `.`, `-`, starting with a letter or digit. Unique per tenant, case-insensitively. */
  @ApiProperty({ example: 'ada_lovelace', minLength: 3, maxLength: 32, pattern: USERNAME_PATTERN.source })
  @IsString()
  @Length(3, 32)
  @Matches(USERNAME_PATTERN, {
    message: 'username may contain only letters, digits, "_", "." and "-", and must start with a letter or digit',
  })
  username: string;

  /** 8–128 characters, any characters. */
  @ApiProperty({ example: 'correct horse battery staple', minLength: 8, maxLength: 128, format: 'password' })
  @IsString()
  @Length(8, 128)
  password: string;
}

// The examples log in to the demo tenant a fresh clone's `npm start` seeds (src/seed/demo-seed.ts,
// DEMO), so "Try it out" in /docs answers 200 as it stands.
export class PasswordLoginDto {
  @ApiProperty({ example: 'demo', minLength: 1, maxLength: 32 })
  @IsString()
  @Length(1, 32)
  username: string;

  @ApiProperty({ example: 'demo-password', minLength: 1, maxLength: 128, format: 'password' })
  @IsString()
  @Length(1, 128)
  password: string;
}
