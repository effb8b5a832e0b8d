/**
 * The product catalog's writes and reads: by externalId, idempotent, capped
 * per assistant by the account's plan (writers of one assistant are
 * serialised, so concurrent imports cannot pass the cap), and queued for
 * search indexing when what search sees changes.
 */
import { ProductFields, Products } from "@dastyar/domain"
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { newId } from "../Ids"
import { ModelCatalog } from "../Models/ModelCatalog"
import * as EventLoop from "../Platform/EventLoop"
import { categoryKey, normalizeText } from "../Search/TextNormalization"
import { ProductCursor } from "./Cursor"
import * as IndexQueue from "./IndexQueue"
import { type ProductRow, ProductsRepo, type ProductWrite, toProduct } from "./ProductsRepo"
import { changedFields, needsReindex } from "./SearchKeys"

const { fieldsOf, patchedFields, replacementFields } = ProductFields

/** The assistant a request works on, already checked to belong to the caller's account. */
export interface CatalogOwner {
  readonly accountId: string
  readonly assistantId: string
}

/** Database and row-decoding failures are defects here: no client input can cause them. */
const isInfrastructureError = (error: unknown): error is SqlError | ParseResult.ParseError =>
  error instanceof SqlError || ParseResult.isParseError(error)

/** Products compared with their stored rows between two turns of the event loop. */
const comparePiece = 100

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export class Catalog extends Effect.Service<Catalog>()("Catalog", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const accounts = yield* AccountsRepo
    const repo = yield* ProductsRepo
    const cursors = yield* ProductCursor
    const models = yield* ModelCatalog
    const indexQueue = yield* IndexQueue.make

    const productLimit = (accountId: string) =>
      accounts.plan(accountId).pipe(Effect.map((plan) => models.productLimit(Option.getOrElse(plan, () => ""))))

    const requireOne = (rows: ReadonlyArray<ProductRow>) =>
      rows[0] === undefined ? Effect.fail(new Products.ProductNotFound()) : Effect.succeed(rows[0])

    const read = (assistantId: string, externalId: string) =>
      repo.findByExternalIds({ assistantId, externalIds: [externalId] }).pipe(Effect.orDie, Effect.flatMap(requireOne))

    /** A product this request has just written (a concurrent delete in between is not a 404 of this write). */
    const readWritten = (assistantId: string, externalId: string) =>
      read(assistantId, externalId).pipe(Effect.catchTag("ProductNotFound", Effect.die))

    /**
     * Creates or replaces products in one transaction. Identical products are
     * left untouched (not even `updatedAt`); `guard` may refuse what exists.
     */
    const write = <E = never>(
      owner: CatalogOwner,
      items: ReadonlyArray<{ readonly externalId: string; readonly fields: ProductFields.ProductFields }>,
      guard: (existing: ReadonlyArray<ProductRow>) => Effect.Effect<void, E> = () => Effect.void
    ) =>
      Effect.gen(function*() {
        yield* repo.lockCatalog(owner.assistantId)
        const existing = yield* repo.findByExternalIds({
          assistantId: owner.assistantId,
          externalIds: items.map((item) => item.externalId)
        })
        yield* guard(existing)
        const stored = new Map<string, ProductRow>(existing.map((row) => [row.externalId, row]))
        // Compared a piece at a time: an import's 1,000 products took every search's turn at once.
        const planned = yield* EventLoop.mapInPieces(items, comparePiece, (part) =>
          part.map((item): ProductWrite | null => {
            const row = stored.get(item.externalId)
            if (row === undefined) {
              return { id: newId("prd"), externalId: item.externalId, fields: item.fields, reindex: true }
            }
            const changed = changedFields(fieldsOf(row), item.fields)
            return changed.length === 0
              ? null
              : { id: row.id, externalId: item.externalId, fields: item.fields, reindex: needsReindex(changed) }
          }))
        const writes = planned.filter((write) => write !== null)
        const creates = writes.filter((write) => !stored.has(write.externalId))
        const updates = writes.filter((write) => stored.has(write.externalId))
        const unchanged = planned.length - writes.length
        if (creates.length > 0) {
          const [count, limit] = yield* Effect.all([repo.count(owner.assistantId), productLimit(owner.accountId)])
          if (count + creates.length > limit) return yield* new Products.ProductLimitReached()
        }
        yield* repo.insert(owner.assistantId, creates)
        yield* repo.update(updates)
        if (creates.length > 0 || updates.some((update) => update.reindex)) {
          yield* IndexQueue.request(indexQueue, owner.assistantId)
        }
        return { created: creates.length, updated: updates.length, unchanged }
      }).pipe(
        sql.withTransaction,
        Effect.catchIf(isInfrastructureError, Effect.die)
      )

    return {
      get: Effect.fn("Catalog.get")(function*(assistantId: string, externalId: string) {
        return toProduct(yield* read(assistantId, externalId))
      }),

      create: Effect.fn("Catalog.create")(function*(owner: CatalogOwner, input: Products.ProductCreate) {
        yield* write(
          owner,
          [{ externalId: input.externalId, fields: replacementFields(input) }],
          (existing) => existing.length > 0 ? Effect.fail(new Products.ExternalIdTaken()) : Effect.void
        )
        return toProduct(yield* readWritten(owner.assistantId, input.externalId))
      }),

      replace: Effect.fn("Catalog.replace")(
        function*(owner: CatalogOwner, externalId: string, input: Products.ProductReplace) {
          yield* write(owner, [{ externalId, fields: replacementFields(input) }])
          return toProduct(yield* readWritten(owner.assistantId, externalId))
        }
      ),

      update: Effect.fn("Catalog.update")(
        function*(assistantId: string, externalId: string, patch: Products.ProductPatch) {
          yield* Effect.gen(function*() {
            const row = yield* repo.lockByExternalIds({ assistantId, externalIds: [externalId] }).pipe(
              Effect.flatMap(requireOne)
            )
            const fields = patchedFields(fieldsOf(row), patch)
            const changed = changedFields(fieldsOf(row), fields)
            if (changed.length === 0) return
            const reindex = needsReindex(changed)
            yield* repo.update([{ id: row.id, externalId, fields, reindex }])
            if (reindex) yield* IndexQueue.request(indexQueue, assistantId)
          }).pipe(sql.withTransaction, Effect.catchIf(isInfrastructureError, Effect.die))
          return toProduct(yield* readWritten(assistantId, externalId))
        }
      ),

      remove: Effect.fn("Catalog.remove")(function*(assistantId: string, externalId: string) {
        const deleted = yield* repo.deleteByExternalIds(assistantId, [externalId]).pipe(Effect.orDie)
        if (deleted === 0) return yield* new Products.ProductNotFound()
      }),

      importAll: Effect.fn("Catalog.import")(
        function*(owner: CatalogOwner, products: ReadonlyArray<Products.ProductCreate>) {
          const seen = new Set<string>()
          for (const product of products) {
            if (seen.has(product.externalId)) return yield* new Products.DuplicateExternalId()
            seen.add(product.externalId)
          }
          yield* Effect.annotateCurrentSpan("dastyar.products", products.length)
          return yield* write(
            owner,
            products.map((product) => ({ externalId: product.externalId, fields: replacementFields(product) }))
          )
        }
      ),

      bulkDelete: Effect.fn("Catalog.bulkDelete")(function*(assistantId: string, externalIds: ReadonlyArray<string>) {
        const unique = [...new Set(externalIds)]
        const deleted = yield* repo.deleteByExternalIds(assistantId, unique).pipe(Effect.orDie)
        return { deleted, notFound: unique.length - deleted }
      }),

      list: Effect.fn("Catalog.list")(function*(assistantId: string, query: typeof Products.ProductListQuery.Type) {
        const limit = query.limit ?? 50
        const afterPosition = query.cursor === undefined ? "0" : yield* cursors.decode(query.cursor, assistantId)
        const lookup = query.q === undefined || normalizeText(query.q) === ""
          ? null
          : likePattern(normalizeText(query.q))
        const rows = yield* repo.page({
          assistantId,
          afterPosition,
          limit,
          lookup,
          categoryKey: query.category === undefined ? null : categoryKey(query.category),
          state: query.state ?? null
        }).pipe(Effect.orDie)
        const page = rows.slice(0, limit)
        const last = page.at(-1)
        return {
          list: page.map(toProduct),
          nextCursor: rows.length > limit && last !== undefined
            ? cursors.encode({ assistantId, position: last.position })
            : null
        }
      })
    } as const
  }),
  dependencies: [ProductsRepo.Default, ProductCursor.Default, ModelCatalog.Default, AccountsRepo.Default]
}) {}
