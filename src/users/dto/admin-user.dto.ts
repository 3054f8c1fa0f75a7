import { ApiProperty } from '@nestjs/swagger';
import { IsUuid } from '../../common/validation/decorators.js';

/** Who a user is, for the operator console's player view (no credentials, no tokens). */
export class AdminUserDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  userId: string;

  @ApiProperty({ example: 'ada_l' })
  handle: string;

  @ApiProperty({ type: String, nullable: true, example: 'Ada' })
  displayName: string | null;

  /** The password login's username, if the user has one. */
  @ApiProperty({ type: String, nullable: true, example: 'ada' })
  username: string | null;

  @ApiProperty({ format: 'date-time', example: '2025-01-01T12:00:00.000Z' })
  createdAt: Date;
}

/** `{userId}` of the management reads of one player. */
export class AdminUserIdParamDto {
  @ApiProperty({ format: 'uuid', example: '3b241101-e2bb-4255-8caf-4136c566a962' })
  @IsUuid()
  userId: string;
}
