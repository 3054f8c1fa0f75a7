import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Sessions that ended before their session tokens expire: one session (`sessionId`, the id of the
 * refresh token row of a login, logged out) or every session of a user (`userId`, the user was
 * deleted; written by a trigger on `users`). Every instance keeps the rows whose `expiresAt` has
 * not passed in memory (src/access/session-revocations.ts), told of new ones by NOTIFY.
 * No foreign keys: a deleted user's row must outlive the user.
 */
@Entity('session_revocations')
@Index('ix_session_revocations_expires', ['expiresAt'])
@Check('ck_session_revocations_one_subject', 'num_nonnulls(session_id, user_id) = 1')
export class SessionRevocation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  /** When the last session token this row can refuse has expired; the row is forgotten then. */
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
