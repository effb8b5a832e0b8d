/**
 * `ChunkSearch` over the assistant's ready documents, hybrid:
 *
 * - meaning: pgvector cosine distance between the query's and each chunk's
 *   embedding (current `Embedder.modelId` only);
 * - keywords: Postgres full text (`simple` configuration) over the chunk's
 *   normalised words (`searchWords`: letters and digits only, fa/ar/en folded
 *   by `normalizeText`), each query word also matching as a prefix.
 *
 * The best `pool` chunks of each side are pooled and scored in [0, 1]:
 * `semantic` = cosine similarity (clamped at 0), `keyword` = the share of the
 * query's content words (stop words dropped) the chunk contains, and
 * `score = 1 − (1 − semantic)(1 − keyword)`: either signal alone can make a
 * chunk relevant, both make it more so, and a chunk sharing neither words nor
 * meaning with the query stays near 0, so a relevance floor (chat) is
 * meaningful. If the query cannot be embedded (provider down), keywords alone decide.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import { tsqueryTerm } from "../Search/KeywordQuery"
import { wordsOf } from "../Search/TextNormalization"
import { type ChunkHit, ChunkSearch, ChunkSearchError } from "./ChunkSearch"

const stopWords = new Set([
  // English
  "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for", "from", "has", "have", "how",
  "i", "if", "in", "is", "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "so", "that", "the", "their",
  "there", "this", "to", "was", "we", "what", "when", "where", "which", "who", "why", "will", "with", "you", "your",
  // Persian (normalised forms)
  "از", "به", "با", "در", "را", "که", "و", "یا", "این", "آن", "اون", "است", "هست", "نیست", "بود", "شد", "می", "من",
  "تو", "ما", "شما", "او", "برای", "چه", "چی", "چرا", "کجا", "کی", "آیا", "هم", "نه", "تا", "اگر", "یک", "ها", "های"
])

/** Content words of a query (deduplicated, at most 16), as the keyword side sees them. */
export const queryTerms = (query: string): ReadonlyArray<string> =>
  [...new Set(wordsOf(query).filter((word) => !stopWords.has(word)))].slice(0, 16)

/** A chunk's keyword side: its normalised words, separated by single spaces. */
export const searchWords = (text: string): string => wordsOf(text).join(" ")


export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const embedder = yield* Embedder

  const search = Effect.fn("ChunkSearch.search")(function*(params: {
    readonly assistantId: string
    readonly query: string
    readonly limit: number
  }) {
    const limit = Math.max(1, Math.min(100, Math.floor(params.limit)))
    const pool = Math.max(20, limit * 4)
    const terms = queryTerms(params.query)
    const vector = yield* embedder.embed([params.query]).pipe(
      Effect.map((result) => Option.fromNullable(result.vectors[0])),
      Effect.catchAll((error) =>
        Effect.logWarning("query embedding failed; keyword search only", error).pipe(Effect.as(Option.none()))
      )
    )
    if (Option.isNone(vector) && terms.length === 0) return []

    const ready = sql`d.assistant_id = ${params.assistantId} AND d.state = 'ready'`
    const queryVector = Option.map(vector, vectorLiteral)
    const anyTerm = terms.map(tsqueryTerm).join(" | ")
    const sides = [
      ...Option.match(queryVector, {
        onNone: () => [],
        onSome: (literal) => [sql`(
          SELECT c.file_id, c.chunk FROM document_chunks c JOIN documents d ON d.id = c.file_id
          WHERE ${ready} AND c.model_id = ${embedder.modelId}
          ORDER BY c.embedding <=> ${literal}::vector LIMIT ${pool})`]
      }),
      ...(terms.length === 0 ? [] : [sql`(
          SELECT c.file_id, c.chunk FROM document_chunks c JOIN documents d ON d.id = c.file_id
          WHERE ${ready} AND c.search_vector @@ to_tsquery('simple', ${anyTerm})
          ORDER BY ts_rank(c.search_vector, to_tsquery('simple', ${anyTerm})) DESC LIMIT ${pool})`])
    ]
    const similarity = Option.match(queryVector, {
      onNone: () => sql`0`,
      onSome: (literal) => sql`CASE WHEN c.model_id = ${embedder.modelId} THEN 1 - (c.embedding <=> ${literal}::vector) ELSE 0 END`
    })
    const matched = terms.length === 0
      ? sql`0`
      : sql.join(" + ", false)(terms.map((term) => sql`(c.search_vector @@ to_tsquery('simple', ${tsqueryTerm(term)}))::int`))

    const rows = yield* sql<{
      readonly fileId: string
      readonly path: string
      readonly chunk: number
      readonly text: string
      readonly similarity: number
      readonly matched: number
    }>`
      WITH candidates AS (${sql.join(" UNION ", false)(sides)})
      SELECT c.file_id, d.path, c.chunk, c.text, (${similarity})::float8 AS similarity, (${matched})::int AS matched
      FROM candidates k
      JOIN document_chunks c ON c.file_id = k.file_id AND c.chunk = k.chunk
      JOIN documents d ON d.id = c.file_id
      WHERE ${ready}`.pipe(Effect.mapError((cause) => new ChunkSearchError({ cause })))

    return rows
      .map((row): ChunkHit => {
        const semantic = Math.max(0, Math.min(1, Number(row.similarity)))
        const keyword = terms.length === 0 ? 0 : Number(row.matched) / terms.length
        return {
          fileId: row.fileId,
          path: row.path,
          chunk: row.chunk,
          text: row.text,
          score: 1 - (1 - semantic) * (1 - keyword)
        }
      })
      .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.chunk - b.chunk)
      .slice(0, limit)
  })

  return ChunkSearch.of({ search })
})

export const layer = Layer.effect(ChunkSearch, make)
