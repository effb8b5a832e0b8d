/** Runs the migrations in `migrations/` (bundled as a record, so no file globbing at run time). */
import { Migrator } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import * as Layer from "effect/Layer"
import core from "./migrations/0001_core"

export const migrations = Migrator.fromRecord({
  "0001_core": core
})

export const layer = PgMigrator.layer({ loader: migrations }).pipe(Layer.orDie)

/** The id of the newest migration; `/ready` compares the database against it. */
export const latestMigration = 1
