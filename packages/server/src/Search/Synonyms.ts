/**
 * An assistant's synonyms: stored as written (Database migration 0022),
 * compiled into rules (SynonymRules.ts) for search, which reads them through
 * a cache. A write on any instance empties every instance's cache at once
 * (`Invalidations`, topic `synonyms`), so the rules are kept for
 * `rulesTtl`, which bounds only what a change made outside the service (SQL
 * by hand) waits for; while an instance may miss such a notification, it
 * reads them for every search. A statement that reads more of an
 * assistant's state (product search's first read of a shop) may bring its
 * sets along (`setsColumn`) and hand them to the cache (`remember`), so a
 * shop's first search pays no round trip of its own for them.
 */
import { Synonyms as Api } from "@dastyar/domain"
import { SqlClient, type Statement } from "@effect/sql"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Invalidations } from "../Database/Invalidations"
import { newId } from "../Ids"
import { compileRules, type SynonymRule, type SynonymSet } from "./SynonymRules"

/** How long an assistant's compiled rules are reused at most (a write through the service empties them at once). */
export const rulesTtl = Duration.minutes(10)

type Synonym = typeof Api.Synonym.Type
type SynonymInput = typeof Api.SynonymInput.Type

interface Row {
  readonly id: string
  readonly root: string | null
  readonly synonyms: ReadonlyArray<string>
}

const toSynonym = (row: Row): Synonym => ({ id: row.id, root: row.root, synonyms: [...row.synonyms] })

/** The sets as `setsColumn` gives them. */
const SetsJson = Schema.Array(
  Schema.Struct({ root: Schema.NullOr(Schema.String), synonyms: Schema.Array(Schema.String) })
)

/** The assistant's sets in order, as one JSON value: a column of a statement that reads more of its state. */
export const setsColumn = (sql: SqlClient.SqlClient, assistantId: string): Statement.Fragment =>
  sql`(SELECT coalesce(json_agg(json_build_object('root', root, 'synonyms', synonyms) ORDER BY position), '[]'::json)
       FROM search_synonyms WHERE assistant_id = ${assistantId})`

/** Terms trimmed, empty and repeated ones dropped (as written otherwise: shown back as sent). */
const cleaned = (input: SynonymInput): SynonymSet => ({
  root: input.root?.trim() || null,
  synonyms: [...new Set(input.synonyms.map((term) => term.trim()).filter((term) => term !== ""))]
})

export class Synonyms extends Effect.Service<Synonyms>()("Synonyms", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const invalidations = yield* Invalidations

    const list = (assistantId: string) =>
      sql<Row>`SELECT id, root, synonyms FROM search_synonyms WHERE assistant_id = ${assistantId}
               ORDER BY position`.pipe(Effect.orDie, Effect.map((rows) => rows.map(toSynonym)))

    /** Empties every instance's rules once a write is committed: sets read before it are not remembered. */
    const written = invalidations.publish("synonyms")

    const rules = yield* invalidations.cache({
      topics: ["synonyms"],
      capacity: 10_000,
      timeToLive: rulesTtl,
      keyOf: (assistantId: string) => assistantId,
      lookup: (assistantId: string) =>
        list(assistantId).pipe(Effect.map((sets): ReadonlyArray<SynonymRule> => compileRules(sets)))
    })

    const insert = (assistantId: string, set: SynonymSet) =>
      sql<Row>`INSERT INTO search_synonyms (id, assistant_id, root, synonyms)
               VALUES (${newId("syn")}, ${assistantId}, ${set.root}, ${set.synonyms}::text[])
               RETURNING id, root, synonyms`.pipe(Effect.map((rows) => rows.map(toSynonym)))

    const add = Effect.fn("Synonyms.add")(function*(assistantId: string, input: SynonymInput) {
      const created = yield* sql.withTransaction(Effect.gen(function*() {
        // Serialises writers of one assistant, so concurrent adds cannot pass the cap.
        yield* sql`SELECT 1 FROM assistants WHERE id = ${assistantId} FOR UPDATE`
        const [{ n }] = yield* sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM search_synonyms WHERE assistant_id = ${assistantId}`
        if (n >= Api.maxSynonymSets) return null
        return (yield* insert(assistantId, cleaned(input)))[0] ?? null
      })).pipe(Effect.orDie)
      yield* written
      return created ?? (yield* new Api.SynonymLimitReached())
    })

    const replace = Effect.fn("Synonyms.replace")(
      function*(assistantId: string, inputs: ReadonlyArray<SynonymInput>) {
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`SELECT 1 FROM assistants WHERE id = ${assistantId} FOR UPDATE`
          yield* sql`DELETE FROM search_synonyms WHERE assistant_id = ${assistantId}`
          if (inputs.length === 0) return
          const rows = inputs.map(cleaned).map((set) => ({
            id: newId("syn"),
            assistant_id: assistantId,
            root: set.root,
            synonyms: set.synonyms
          }))
          yield* sql`INSERT INTO search_synonyms ${sql.insert(rows)}`
        })).pipe(Effect.orDie)
        yield* written
        return yield* list(assistantId)
      }
    )

    const remove = Effect.fn("Synonyms.remove")(function*(assistantId: string, id: string) {
      const deleted = yield* sql<{ readonly id: string }>`
        DELETE FROM search_synonyms WHERE assistant_id = ${assistantId} AND id = ${id} RETURNING id`.pipe(
        Effect.orDie
      )
      yield* written
      if (deleted.length === 0) return yield* new Api.SynonymNotFound()
    })

    /** The assistant's rules for search; none when they cannot be read (search still answers). */
    const rulesOf = (assistantId: string) =>
      rules.get(assistantId).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning("search without synonyms", cause).pipe(Effect.as<ReadonlyArray<SynonymRule>>([]))
        )
      )

    /**
     * Keeps the assistant's rules from a `setsColumn` value read by a statement that began when `writesSeen`
     * (`writesSoFar`) was current; one read before a later write on any instance is dropped.
     */
    const remember = (assistantId: string, sets: unknown, writesSeen: number) =>
      Schema.decodeUnknown(SetsJson)(sets).pipe(
        Effect.flatMap((decoded) => rules.set(assistantId, compileRules(decoded), writesSeen)),
        Effect.catchAll((error) => Effect.logWarning("synonyms read with a shop's state not kept", error))
      )

    /** Where the cache's emptyings are, to give `remember`. */
    const writesSoFar = rules.generation

    return { list, add, replace, remove, rulesOf, remember, writesSoFar }
  }),
  dependencies: [Invalidations.Default]
}) {}
