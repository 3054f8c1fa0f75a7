import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BaseRepository, GenerateSql } from '../database/repository.js';

/** Secrets the service generated for itself, shared by every instance on the database. */
@Injectable()
export class AppSecretsRepository extends BaseRepository {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Stores `candidate` under `name` unless a value is stored already; the stored value. */
  @GenerateSql({ params: ['example_secret', '00'] })
  async getOrCreate(name: string, candidate: string, em?: EntityManager): Promise<string> {
    const m = this.manager(em);
    await m.query('INSERT INTO app_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [name, candidate]);
    const rows: { value: string }[] = await m.query('SELECT value FROM app_secrets WHERE name = $1', [name]);
    return rows[0].value;
  }
}
