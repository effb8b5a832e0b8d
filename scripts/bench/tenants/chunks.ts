/**
 * The shops' documents for the tenants benchmark (written once through the
 * real ingest worker, then copied to every shop) and chunk retrieval for chat
 * sent straight to Postgres: the statements `Documents/HybridChunkSearch.ts`
 * sends (the keyword candidates over the chunks' terms, the 40 nearest chunks
 * of the assistant's ready documents, then the candidates' rows), without
 * its dictionary lookup, synonyms and ranking.
 */
import type { Client } from "pg"
import { vectorLiteral } from "../../../packages/server/src/Search/Embedder"
import { embedOne, modelId } from "../../../packages/server/src/Search/OfflineEmbedder"
import { stopWords } from "../../../packages/server/src/Search/SearchEngine"
import { wordsOf } from "../../../packages/server/src/Search/TextNormalization"
import { random } from "../catalog/products"

const topics = [
  ["Shipping", "delivery", "courier", "parcel", "district", "days", "tracking", "express"],
  ["Returns", "refund", "exchange", "receipt", "unused", "packaging", "store credit", "inspection"],
  ["Warranty", "repair", "defect", "guarantee", "replacement", "service centre", "battery", "screen"]
] as const

/** Three Markdown documents of a few kilobytes each: sections on shipping, returns and warranty terms. */
export const sourceDocuments = (): ReadonlyArray<{ readonly filename: string; readonly content: string }> =>
  topics.map(([title, ...words], t) => {
    const rng = random(100 + t)
    const sections = Array.from({ length: 12 }, (_, s) => {
      const sentences = Array.from({ length: 8 }, () => {
        const a = rng.pick(words)
        const b = rng.pick(words)
        return `The ${a} policy for ${b} in region ${rng.int(1, 40)} takes ${rng.int(1, 14)} working days.`
      })
      return `## ${title} ${s + 1}\n\n${sentences.join(" ")}`
    })
    return { filename: `${title.toLowerCase()}.md`, content: `# ${title}\n\n${sections.join("\n\n")}` }
  })

/** Questions a shopper asks in chat about those documents. */
export const chatQuestions = (count: number): ReadonlyArray<string> => {
  const rng = random(200)
  return Array.from({ length: count }, () => {
    const [, ...words] = rng.pick(topics)
    return `How many days does ${rng.pick(words)} take for ${rng.pick(words)} in region ${rng.int(1, 40)}?`
  })
}

const pool = 40

/** One chat retrieval's statements on one connection. */
export const bareChunkRetrieval = async (db: Client, assistantId: string, question: string): Promise<void> => {
  const terms = [...new Set(wordsOf(question))].filter((word) => !stopWords.has(word))
  const vector = vectorLiteral(embedOne(question))
  const keyword = await db.query<{ file_id: string; chunk: number }>(
    `SELECT c.file_id, c.chunk FROM document_chunks c JOIN documents d ON d.id = c.file_id
     WHERE d.assistant_id = $1 AND d.state = 'ready' AND c.search_terms && $2::text[] LIMIT 2000`,
    [assistantId, terms]
  )
  const keys = keyword.rows.slice(0, pool).map((row) => `${row.file_id}:${row.chunk}`)
  await db.query(
    `WITH candidates AS (
       (SELECT c.file_id, c.chunk FROM document_chunks c JOIN documents d ON d.id = c.file_id
        WHERE d.assistant_id = $1 AND d.state = 'ready' AND c.model_id = $3
        ORDER BY c.embedding <=> $2::halfvec LIMIT ${pool})
       UNION
       (SELECT split_part(k, ':', 1) AS file_id, split_part(k, ':', 2)::int AS chunk FROM unnest($4::text[]) AS k))
     SELECT c.file_id, d.path, c.chunk, c.text, 1 - (c.embedding <=> $2::halfvec) AS similarity
     FROM candidates k
     JOIN document_chunks c ON c.file_id = k.file_id AND c.chunk = k.chunk
     JOIN documents d ON d.id = c.file_id
     WHERE d.assistant_id = $1 AND d.state = 'ready'`,
    [assistantId, vector, modelId, keys]
  )
}
