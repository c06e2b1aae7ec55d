/** The jobs repository of a database: its SQLite or its PostgreSQL implementation. */
import { perDatabase } from '../../db/database'
import { postgresJobs } from './postgres'
import type { JobsRepository } from './repository'
import { sqliteJobs } from './sqlite'

export const jobsRepository = perDatabase<JobsRepository>({ sqlite: sqliteJobs, postgres: postgresJobs })
