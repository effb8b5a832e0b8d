/**
 * `ChunkSearch` over the assistant's ready documents, on the search engine
 * shared with product search (Search/SearchEngine.ts):
 *
 * - keywords: the query's words expanded against the assistant's term
 *   dictionary (stems, typos, the last word as a prefix), the chunks holding
 *   any of them (GIN over `search_terms`) ranked by the engine's rules;
 * - meaning: pgvector cosine distance between the query's and each chunk's
 *   embedding (halfvecs; current `Embedder.modelId` only).
 *
 * The best `pool` chunks of each side are pooled and scored in [0, 1]:
 * `semantic` = cosine similarity (clamped at 0), `keyword` = the share of the
 * query's content words the chunk matches (typo- and stem-tolerant, as the
 * engine matched them), and `score = 1 − (1 − semantic)(1 − keyword)`: either
 * signal alone can make a chunk relevant, both make it more so, and a chunk
 * sharing neither words nor meaning with the query stays near 0, so a
 * relevance floor (chat) is meaningful. Equal scores keep the engine's keyword
 * order. If the query cannot be embedded (provider down), keywords alone decide.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ReadSql } from "../Database/Replicas"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import { translations } from "../Search/Lexicon"
import * as SearchEngine from "../Search/SearchEngine"
import { expandWithSynonyms } from "../Search/SynonymRules"
import { Synonyms } from "../Search/Synonyms"
import { wordsOf } from "../Search/TextNormalization"
import { type ChunkHit, ChunkSearch, ChunkSearchError } from "./ChunkSearch"

/** Keyword candidates ranked per query at most. */
const maxCandidates = 1000

/** A chunk's keyword side: its normalised words, separated by single spaces. */
export const searchWords = (text: string): string => wordsOf(text).join(" ")

interface KeywordSide {
  readonly ranked: ReadonlyArray<{ readonly id: string; readonly matched: number }>
  readonly counted: number
}

/** The query's own ranking first, then chunks only its translation found; a chunk keeps its better match. */
const mergeKeywordSides = (
  own: KeywordSide,
  translated: KeywordSide["ranked"],
  pool: number
): KeywordSide => {
  const seen = new Map(own.ranked.map((result) => [result.id, result]))
  const added = translated.filter((result) => !seen.has(result.id)).slice(0, pool)
  const better = own.ranked.map((result) => {
    const alternative = translated.find((candidate) => candidate.id === result.id)
    return alternative !== undefined && alternative.matched > result.matched ? alternative : result
  })
  return { ranked: [...better, ...added], counted: own.counted }
}

export const make = Effect.gen(function*() {
  // Chunk retrieval may be served by a replica (Database/Replicas.ts).
  const sql = yield* ReadSql
  const embedder = yield* Embedder
  const synonyms = yield* Synonyms

  const collectionSizes = yield* SearchEngine.makeCollectionSizes((assistantId) =>
    sql<{ readonly n: number }>`
      SELECT count(*)::int AS n FROM document_chunks c JOIN documents d ON d.id = c.file_id
      WHERE d.assistant_id = ${assistantId} AND d.state = 'ready'`.pipe(Effect.map((rows) => rows[0]?.n ?? 0))
  )

  const keywordSide = Effect.fn("ChunkSearch.keyword")(function*(assistantId: string, query: string, pool: number) {
    const words = SearchEngine.parseQuery(query)
    if (words.length === 0) return { ranked: [], counted: 0 }
    // The shop's synonyms apply to its documents too.
    const rules = yield* synonyms.rulesOf(assistantId)
    const expansion = yield* expandWithSynonyms((all) => SearchEngine.expand(sql, assistantId, all), words, rules)
    const rows = yield* sql<{ readonly fileId: string; readonly chunk: number; readonly searchText: string }>`
      SELECT c.file_id, c.chunk, c.search_text FROM document_chunks c JOIN documents d ON d.id = c.file_id
      WHERE d.assistant_id = ${assistantId} AND d.state = 'ready'
        AND c.search_terms && ${SearchEngine.expandedTerms(expansion)}::text[]
      LIMIT ${maxCandidates}`
    const ranked = SearchEngine.rankDocuments(
      words,
      expansion,
      rows.map((row) => ({ id: `${row.fileId}:${row.chunk}`, fields: row.searchText })),
      yield* collectionSizes.get(assistantId)
    )
    return { ranked: ranked.slice(0, pool), counted: words.filter((word) => word.counts).length }
  })

  const search = Effect.fn("ChunkSearch.search")(function*(params: {
    readonly assistantId: string
    readonly query: string
    readonly limit: number
  }) {
    const limit = Math.max(1, Math.min(100, Math.floor(params.limit)))
    const pool = Math.max(20, limit * 4)
    const vector = yield* embedder.embed([params.query]).pipe(
      Effect.map((result) => Option.fromNullable(result.vectors[0])),
      Effect.catchAll((error) =>
        Effect.logWarning("query embedding failed; keyword search only", error).pipe(Effect.as(Option.none()))
      )
    )
    const own = yield* keywordSide(params.assistantId, params.query, pool).pipe(
      Effect.mapError((cause) => new ChunkSearchError({ cause }))
    )
    // The query's shop terms in both languages (Lexicon.ts), searched apart: an English question finds a
    // passage written only in Persian. Their share counts against the query's own words.
    const translated = translations(
      SearchEngine.parseQuery(params.query).filter((word) => word.counts).map((word) => word.word)
    )
    const other = translated.length === 0
      ? { ranked: [], counted: 0 }
      : yield* keywordSide(params.assistantId, translated.join(" "), pool).pipe(
        Effect.mapError((cause) => new ChunkSearchError({ cause }))
      )
    const keyword = mergeKeywordSides(own, other.ranked, pool)
    if (Option.isNone(vector) && keyword.ranked.length === 0) return []

    const ready = sql`d.assistant_id = ${params.assistantId} AND d.state = 'ready'`
    const queryVector = Option.map(vector, vectorLiteral)
    const keywordKeys = keyword.ranked.map((result) => result.id)
    const sides = [
      ...Option.match(queryVector, {
        onNone: () => [],
        onSome: (literal) => [sql`(
          SELECT c.file_id, c.chunk FROM document_chunks c JOIN documents d ON d.id = c.file_id
          WHERE ${ready} AND c.model_id = ${embedder.modelId}
          ORDER BY c.embedding <=> ${literal}::halfvec LIMIT ${pool})`]
      }),
      ...(keywordKeys.length === 0 ? [] : [sql`(
          SELECT split_part(k, ':', 1) AS file_id, split_part(k, ':', 2)::int AS chunk
          FROM unnest(${keywordKeys}::text[]) AS k)`])
    ]
    const similarity = Option.match(queryVector, {
      onNone: () => sql`0`,
      onSome: (literal) =>
        sql`CASE WHEN c.model_id = ${embedder.modelId} THEN 1 - (c.embedding <=> ${literal}::halfvec) ELSE 0 END`
    })

    const rows = yield* sql<{
      readonly fileId: string
      readonly path: string
      readonly chunk: number
      readonly text: string
      readonly similarity: number
    }>`
      WITH candidates AS (${sql.join(" UNION ", false)(sides)})
      SELECT c.file_id, d.path, c.chunk, c.text, (${similarity})::float8 AS similarity
      FROM candidates k
      JOIN document_chunks c ON c.file_id = k.file_id AND c.chunk = k.chunk
      JOIN documents d ON d.id = c.file_id
      WHERE ${ready}`.pipe(Effect.mapError((cause) => new ChunkSearchError({ cause })))

    const keywordRank = new Map(keyword.ranked.map((result, rank) => [result.id, { rank, matched: result.matched }]))
    return rows
      .map((row) => {
        const semantic = Math.max(0, Math.min(1, Number(row.similarity)))
        const found = keywordRank.get(`${row.fileId}:${row.chunk}`)
        const share = found === undefined || keyword.counted === 0 ? 0 : Math.min(1, found.matched / keyword.counted)
        const hit: ChunkHit = {
          fileId: row.fileId,
          path: row.path,
          chunk: row.chunk,
          text: row.text,
          score: 1 - (1 - semantic) * (1 - share)
        }
        return { hit, rank: found?.rank ?? Number.POSITIVE_INFINITY }
      })
      .sort((a, b) =>
        b.hit.score - a.hit.score || a.rank - b.rank || a.hit.path.localeCompare(b.hit.path) ||
        a.hit.chunk - b.hit.chunk
      )
      .slice(0, limit)
      .map(({ hit }) => hit)
  })

  return ChunkSearch.of({ search })
})

export const layer = Layer.effect(ChunkSearch, make).pipe(Layer.provide(Synonyms.Default))
