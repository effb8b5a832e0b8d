/** Accounts and their API keys. */
import { Auth } from "@dastyar/domain"
import { SqlClient, SqlSchema } from "@effect/sql"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { Invalidations } from "../Database/Invalidations"
import { newId } from "../Ids"
import { withSpanWhenTracing } from "../Telemetry"
import * as ApiKeySecret from "./ApiKeySecret"

/**
 * How long a key's owner is remembered by one instance. A revocation anywhere empties every instance's cache
 * at once (`Invalidations`); this bounds only what a change made outside the service (SQL by hand) waits for.
 */
export const ownerCacheTtl = "5 seconds"

/** Characters of a key kept in the clear, to recognise it in a list (the random part starts after `dsk_`). */
const keyPrefixLength = 8
/** A key's `last_used_at` is written at most this often (ms) by one instance. */
const lastUsedEvery = 60_000
/**
 * How often the keys noted as used are written, together. A request never waits for the write: a commit waits
 * for the WAL's flush, behind every other shop's writes.
 */
export const lastUsedFlushEvery = Duration.seconds(2)

const KeySummaryRow = Schema.Struct({
  id: Auth.ApiKeyId,
  prefix: Schema.NullOr(Schema.String),
  name: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtcFromDate,
  lastUsedAt: Schema.NullOr(Schema.DateTimeUtcFromDate),
  revokedAt: Schema.NullOr(Schema.DateTimeUtcFromDate)
})

const AccountRow = Schema.Struct({
  id: Auth.AccountId,
  name: Schema.String,
  plan: Schema.String,
  createdAt: Schema.DateTimeUtcFromDate
})

const Count = Schema.Struct({ count: Schema.NumberFromString })

const KeyOwnerRow = Schema.Struct({
  keyId: Auth.ApiKeyId,
  accountId: Auth.AccountId,
  plan: Schema.String,
  assistantIds: Schema.Array(Schema.String)
})

/**
 * An account's assistants read with its key, at most: their ownership then needs no statement of its own
 * (Assistants.requireOwnership). An account with more has the rest checked one by one, as before.
 */
export const ownedAssistantsWithKey = 100

const CreatedKeyRow = Schema.Struct({
  id: Auth.ApiKeyId,
  name: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtcFromDate
})

export class AccountsRepo extends Effect.Service<AccountsRepo>()("AccountsRepo", {
  scoped: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const invalidations = yield* Invalidations
    /** When this instance last noted each key as used (ms). */
    const lastWritten = new Map<string, number>()
    /** Keys noted as used and not yet written. */
    const used = new Set<string>()

    /** Writes the keys noted as used in one statement (none noted: no statement). */
    const writeUses = Effect.suspend(() => {
      if (used.size === 0) return Effect.void
      const ids = [...used]
      used.clear()
      return sql`UPDATE api_keys SET last_used_at = now() WHERE id = ANY(${ids}::text[])`.pipe(
        Effect.asVoid,
        Effect.catchAll((error) => Effect.logWarning("could not note keys' last use", error)),
        // A trace of its own, so the write is not taken for part of whichever request is running at the time.
        Effect.withSpan("Accounts.writeKeyUses", { root: true })
      )
    })
    yield* writeUses.pipe(Effect.repeat(Schedule.spaced(lastUsedFlushEvery)), Effect.forkScoped)
    yield* Effect.addFinalizer(() => writeUses)

    const insertAccount = SqlSchema.single({
      Request: Schema.Struct({ id: Schema.String, name: Schema.String, plan: Schema.String }),
      Result: AccountRow,
      execute: (row) => sql`INSERT INTO accounts ${sql.insert(row)} RETURNING *`
    })

    const findAccount = SqlSchema.findOne({
      Request: Schema.String,
      Result: AccountRow,
      execute: (id) => sql`SELECT * FROM accounts WHERE id = ${id}`
    })

    const insertKey = SqlSchema.single({
      Request: Schema.Struct({
        id: Schema.String,
        accountId: Schema.String,
        name: Schema.NullOr(Schema.String),
        secretHash: Schema.Uint8ArrayFromSelf,
        keyPrefix: Schema.String
      }),
      Result: CreatedKeyRow,
      execute: (row) => sql`INSERT INTO api_keys ${sql.insert(row)} RETURNING id, name, created_at`
    })

    const findPlan = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ plan: Schema.String }),
      execute: (id) => sql`SELECT plan FROM accounts WHERE id = ${id}`
    })

    const findRetention = SqlSchema.findOne({
      Request: Schema.String,
      Result: Schema.Struct({ days: Schema.NullOr(Schema.Number) }),
      execute: (id) => sql`SELECT conversation_retention_days AS days FROM accounts WHERE id = ${id}`
    })

    const findKeyOwner = SqlSchema.findOne({
      Request: Schema.Uint8ArrayFromSelf,
      Result: KeyOwnerRow,
      execute: (secretHash) =>
        sql`SELECT k.id AS key_id, k.account_id, a.plan,
              ARRAY(SELECT s.id FROM assistants s WHERE s.account_id = k.account_id AND s.status <> 'deleting'
                    ORDER BY s.created_at LIMIT ${ownedAssistantsWithKey}) AS assistant_ids
            FROM api_keys k JOIN accounts a ON a.id = k.account_id
            WHERE k.secret_hash = ${secretHash} AND k.revoked_at IS NULL`
    })

    /**
     * Key → owner for a few seconds: every authenticated request needs it, and
     * a join per request was a third of the request's time. Revoking a key or
     * deleting an account empties it on every instance at once; so does deleting
     * an assistant, since the owner carries the account's assistants.
     */
    const owners = yield* invalidations.cache({
      topics: ["keys", "assistants"],
      capacity: 10_000,
      timeToLive: ownerCacheTtl,
      keyOf: (secretHashHex: string) => secretHashHex,
      lookup: (secretHashHex: string) => findKeyOwner(Buffer.from(secretHashHex, "hex")).pipe(Effect.orDie)
    })

    return {
      create: Effect.fn("Accounts.create")(function*(input: { readonly name: string; readonly plan: string }) {
        return yield* insertAccount({ id: newId("acc"), ...input })
      }, Effect.orDie),

      find: (id: string) => findAccount(id).pipe(Effect.orDie),

      /** Whether any account exists (the demo seed runs only on a database with none). */
      any: sql<{ readonly found: boolean }>`SELECT EXISTS (SELECT 1 FROM accounts) AS found`.pipe(
        Effect.map((rows) => rows[0]?.found === true),
        Effect.orDie
      ),

      /** A page of accounts, oldest first, and the number of all accounts. */
      page: (page: { readonly limit: number; readonly offset: number }) =>
        Effect.all({
          list: sql`SELECT * FROM accounts ORDER BY created_at, id LIMIT ${page.limit} OFFSET ${page.offset}`.pipe(
            Effect.flatMap(Schema.decodeUnknown(Schema.Array(AccountRow)))
          ),
          count: sql`SELECT count(*)::text AS count FROM accounts`.pipe(
            Effect.flatMap(Schema.decodeUnknown(Schema.Tuple(Count))),
            Effect.map(([row]) => row.count)
          )
        }, { concurrency: 1 }).pipe(Effect.orDie, Effect.withSpan("Accounts.page")),

      /** The account's plan; none for an unknown account. */
      plan: (id: string) =>
        findPlan(id).pipe(Effect.map(Option.map((row) => row.plan)), Effect.orDie, Effect.withSpan("Accounts.plan")),

      /** How many days the account keeps its conversations (null: for good); none for an unknown account. */
      conversationRetention: (id: string) =>
        findRetention(id).pipe(
          Effect.map(Option.map((row) => row.days)),
          Effect.orDie,
          Effect.withSpan("Accounts.conversationRetention")
        ),

      /** Sets how many days the account keeps its conversations (null: for good); false for an unknown account. */
      setConversationRetention: (id: string, days: number | null) =>
        sql`UPDATE accounts SET conversation_retention_days = ${days} WHERE id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),

      /** Deleting cascades to keys (they stop working at once), assistants and folders. */
      delete: Effect.fn("Accounts.delete")(function*(id: string) {
        const rows = yield* sql`DELETE FROM accounts WHERE id = ${id} RETURNING id`
        // Its keys and its assistants went with it.
        yield* invalidations.publish("keys")
        yield* invalidations.publish("assistants")
        return rows.length > 0
      }, Effect.orDie),

      /** The account's keys, oldest first, without secrets. */
      listKeys: (accountId: string) =>
        sql`
          SELECT id, key_prefix AS prefix, name, created_at, last_used_at, revoked_at FROM api_keys
          WHERE account_id = ${accountId} ORDER BY created_at, id`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Schema.Array(KeySummaryRow))),
          Effect.orDie
        ),

      /**
       * Notes that the key was used: written once a minute per key at most, with the other keys used meanwhile
       * (`lastUsedFlushEvery`), never in the request.
       */
      markUsed: (keyId: string) =>
        Effect.sync(() => {
          const now = Date.now()
          if (now - (lastWritten.get(keyId) ?? 0) < lastUsedEvery) return
          if (lastWritten.size >= 10_000) lastWritten.clear()
          lastWritten.set(keyId, now)
          used.add(keyId)
        }),

      /** Creates a key; the raw key is returned here and never stored. */
      createKey: Effect.fn("Accounts.createKey")(function*(accountId: string, name: string | null) {
        const key = ApiKeySecret.generate()
        const row = yield* insertKey({
          id: newId("key"),
          accountId,
          name,
          secretHash: ApiKeySecret.hash(key),
          keyPrefix: key.slice(0, keyPrefixLength)
        })
        return { ...row, key }
      }, Effect.orDie),

      revokeKey: Effect.fn("Accounts.revokeKey")(function*(keyId: string) {
        const rows =
          yield* sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${keyId} AND revoked_at IS NULL RETURNING id`
        yield* invalidations.publish("keys")
        return rows.length > 0
      }, Effect.orDie),

      /**
       * The account behind a presented key, if the key is well formed, known, not revoked and its account exists.
       * A key not of the issued shape is refused before any lookup: the shape is public, so answering it faster
       * tells a caller nothing, and garbage costs no query or cache entry.
       */
      authenticate: (key: string) =>
        (ApiKeySecret.isWellFormed(key)
          ? owners.get(ApiKeySecret.hash(key).toString("hex")).pipe(Effect.orDie)
          : Effect.succeedNone).pipe(
            withSpanWhenTracing("Accounts.authenticate", { captureStackTrace: false })
          )
    } as const
  }),
  dependencies: [Invalidations.Default]
}) {}
