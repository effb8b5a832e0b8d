/** Runs the migrations in `migrations/` (bundled as a record, so no file globbing at run time). */
import { Migrator, SqlClient } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import core from "./migrations/0001_core"
import catalog from "./migrations/0002_catalog"
import knowledge from "./migrations/0003_knowledge"
import conversations from "./migrations/0004_conversations"
import content from "./migrations/0005_content"
import channels from "./migrations/0006_channels"
import search from "./migrations/0007_search"
import jobList from "./migrations/0008_job_list"
import chunkHeadings from "./migrations/0009_chunk_headings"
import searchScale from "./migrations/0010_search_scale"
import chunkStorage from "./migrations/0011_chunk_storage"
import searchFieldsInline from "./migrations/0012_search_fields_inline"
import chunkTermsBytewise from "./migrations/0013_chunk_terms_bytewise"
import uploadPiecesUncompressed from "./migrations/0014_upload_pieces_uncompressed"
import chunkRows from "./migrations/0015_chunk_rows"
import ledgerReservations from "./migrations/0016_ledger_reservations"
import webConnections from "./migrations/0018_web_connections"
import conversationLog from "./migrations/0019_conversation_log"
import curated from "./migrations/0020_curated"
import channelPlatforms from "./migrations/0021_channel_platforms"
import searchSynonyms from "./migrations/0022_search_synonyms"
import tenantKeys from "./migrations/0023_tenant_keys"
import conversationChannelIndex from "./migrations/0025_conversation_channel_index"
import fairQueue from "./migrations/0026_fair_queue"
import unsyncedByAssistant from "./migrations/0027_unsynced_by_assistant"
import reindexWordParts from "./migrations/0030_reindex_word_parts"
import productTermWrites from "./migrations/0031_product_term_writes"

const migrationRecord = {
  "0001_core": core,
  "0002_catalog": catalog,
  "0003_knowledge": knowledge,
  "0004_conversations": conversations,
  "0005_content": content,
  "0006_channels": channels,
  "0007_search": search,
  "0008_job_list": jobList,
  "0009_chunk_headings": chunkHeadings,
  "0010_search_scale": searchScale,
  "0011_chunk_storage": chunkStorage,
  "0012_search_fields_inline": searchFieldsInline,
  "0013_chunk_terms_bytewise": chunkTermsBytewise,
  "0014_upload_pieces_uncompressed": uploadPiecesUncompressed,
  "0015_chunk_rows": chunkRows,
  "0016_ledger_reservations": ledgerReservations,
  "0018_web_connections": webConnections,
  "0019_conversation_log": conversationLog,
  "0020_curated": curated,
  "0021_channel_platforms": channelPlatforms,
  "0022_search_synonyms": searchSynonyms,
  "0023_tenant_keys": tenantKeys,
  "0025_conversation_channel_index": conversationChannelIndex,
  "0026_fair_queue": fairQueue,
  "0027_unsynced_by_assistant": unsyncedByAssistant,
  "0030_reindex_word_parts": reindexWordParts,
  "0031_product_term_writes": productTermWrites
}

export const migrations = Migrator.fromRecord(migrationRecord)

export const layer = PgMigrator.layer({ loader: migrations }).pipe(Layer.orDie)

/** The id of the newest migration (the number its name starts with); `/ready` compares the database against it. */
export const latestMigration = Math.max(...Object.keys(migrationRecord).map((name) => Number.parseInt(name, 10)))

/** Whether the database answers within a probe's time and has every migration applied (`/ready`). */
export const isMigrated = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly latest: number | null }>`
    SELECT max(migration_id) AS latest FROM effect_sql_migrations`
  return rows[0]?.latest === latestMigration
}).pipe(Effect.timeout("2 seconds"), Effect.orElseSucceed(() => false))
