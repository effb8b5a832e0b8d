/**
 * `ChunkSearch` over the assistant's ready documents, on the search engine
 * shared with product search (Search/SearchEngine.ts):
 *
 * - keywords: the question's words (ChunkQuery.ts: its subject words, their
 *   colloquial and numeric forms, their related words of the bilingual shop
 *   vocabulary and the answerer's paraphrases) expanded against the
 *   assistant's term dictionary (stems, typos, the last word as a prefix),
 *   the chunks holding any of them (GIN
 *   over `search_terms`) ordered by the share of the question they cover
 *   (ChunkCoverage.ts), then by the engine's rules;
 * - meaning: pgvector cosine distance between the query's and each chunk's
 *   embedding (halfvecs; current `Embedder.modelId` only).
 *
 * The best `pool` chunks of each side are pooled and scored in [0, 1]:
 * `semantic` = cosine similarity (clamped at 0), `keyword` = the share of the
 * question's subject words the chunk covers (a related word counts for less
 * than the word, a paraphrase less still), and
 * `score = 1 − (1 − semantic)(1 − keyword)`: either signal alone can make a
 * chunk relevant, both make it more so, and a chunk sharing neither words nor
 * meaning with the query stays near 0, so a relevance floor (chat) is
 * meaningful. Equal scores keep the engine's keyword
 * order. If the query cannot be embedded (provider down), keywords alone decide.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { SearchSql } from "../Database/Replicas"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import * as SearchEngine from "../Search/SearchEngine"
import { expandWithSynonyms } from "../Search/SynonymRules"
import { Synonyms } from "../Search/Synonyms"
import { wordsOf } from "../Search/TextNormalization"
import { type ChunkHit, ChunkSearch, ChunkSearchError } from "./ChunkSearch"
import { coverage } from "./ChunkCoverage"
import { parseChunkQuery } from "./ChunkQuery"

/** Keyword candidates ranked per query at most. */
const maxCandidates = 1000

/** A chunk's keyword side: its normalised words, separated by single spaces. */
export const searchWords = (text: string): string => wordsOf(text).join(" ")

interface KeywordSide {
  /** Best first: by the share of the question covered, then by the engine's ranking of the question's own words. */
  readonly ranked: ReadonlyArray<{ readonly id: string; readonly share: number }>
}

export const make = Effect.gen(function*() {
  // Chunk retrieval may be served by a replica (Database/Replicas.ts), recent writes or not.
  const sql = yield* SearchSql
  const embedder = yield* Embedder
  const synonyms = yield* Synonyms

  const collectionSizes = yield* SearchEngine.makeCollectionSizes((assistantId) =>
    sql<{ readonly n: number }>`
      SELECT count(*)::int AS n FROM document_chunks c JOIN documents d ON d.id = c.file_id
      WHERE d.assistant_id = ${assistantId} AND d.state = 'ready'`.pipe(Effect.map((rows) => rows[0]?.n ?? 0))
  )

  const keywordSide = Effect.fn("ChunkSearch.keyword")(function*(assistantId: string, query: string, pool: number) {
    const parsed = parseChunkQuery(query)
    if (parsed.length === 0) return { ranked: [] }
    const words = parsed.map((word, i): SearchEngine.QueryWord => ({
      word: word.word,
      counts: word.counts,
      prefix: i === parsed.length - 1 && [...word.word].length >= 2
    }))
    // Each word's other forms and related words are looked up in the term dictionary with it, in one call.
    const extras = parsed.flatMap((word, owner) => [
      ...word.forms.map((form) => ({ owner, kind: "form" as const, word: form })),
      ...word.related.map((related) => ({ owner, kind: "related" as const, word: related })),
      ...word.paraphrases.map((paraphrase) => ({ owner, kind: "paraphrase" as const, word: paraphrase }))
    ])
    let extraExpansion: SearchEngine.Expansion = []
    // The shop's synonyms apply to its documents too.
    const rules = yield* synonyms.rulesOf(assistantId)
    const expansion = yield* expandWithSynonyms(
      (all) =>
        SearchEngine.expand(sql, assistantId, [
          ...all,
          ...extras.map(({ word }) => ({ word, counts: true, prefix: false }))
        ]).pipe(Effect.map((expanded) => {
          extraExpansion = expanded.slice(all.length)
          return expanded.slice(0, all.length)
        })),
      words,
      rules
    )
    const termsOf = (owner: number, kind: "form" | "related" | "paraphrase") =>
      new Set(extras.flatMap((extra, i) =>
        extra.owner === owner && extra.kind === kind ? [...(extraExpansion[i]?.keys() ?? [])] : []
      ))
    const wordTerms = parsed.map((word, i) => ({
      counts: word.counts,
      word: new Set(expansion[i]?.keys() ?? []),
      form: termsOf(i, "form"),
      related: termsOf(i, "related"),
      paraphrase: termsOf(i, "paraphrase")
    }))
    const allTerms = [
      ...new Set([...SearchEngine.expandedTerms(expansion), ...SearchEngine.expandedTerms(extraExpansion)])
    ]
    const rows = yield* sql<{ readonly fileId: string; readonly chunk: number; readonly searchText: string }>`
      SELECT c.file_id, c.chunk, c.search_text FROM document_chunks c JOIN documents d ON d.id = c.file_id
      WHERE d.assistant_id = ${assistantId} AND d.state = 'ready'
        AND c.search_terms && ${allTerms}::text[]
      LIMIT ${maxCandidates}`
    const candidates = rows.map((row) => ({ id: `${row.fileId}:${row.chunk}`, searchText: row.searchText }))
    const size = yield* collectionSizes.get(assistantId)
    const shares = coverage(wordTerms, candidates, size)
    const engineRank = new Map(
      SearchEngine.rankDocuments(
        words,
        expansion,
        candidates.map(({ id, searchText }) => ({ id, fields: searchText })),
        size
      ).map((result, rank) => [result.id, rank])
    )
    const rankOf = (id: string) => engineRank.get(id) ?? Number.POSITIVE_INFINITY
    const ranked = candidates
      .map(({ id }) => ({ id, share: shares.get(id) ?? 0 }))
      .filter((result) => result.share > 0)
      .sort((a, b) => b.share - a.share || rankOf(a.id) - rankOf(b.id))
    return { ranked: ranked.slice(0, pool) }
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
    const keyword: KeywordSide = yield* keywordSide(params.assistantId, params.query, pool).pipe(
      Effect.mapError((cause) => new ChunkSearchError({ cause }))
    )
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

    const keywordRank = new Map(keyword.ranked.map((result, rank) => [result.id, { rank, share: result.share }]))
    return rows
      .map((row) => {
        const semantic = Math.max(0, Math.min(1, Number(row.similarity)))
        const found = keywordRank.get(`${row.fileId}:${row.chunk}`)
        const share = found === undefined ? 0 : Math.min(1, found.share)
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
