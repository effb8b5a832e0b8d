/**
 * Product rows: reads in the API's shape, and bulk writes through
 * `jsonb_to_recordset` so an import of 1,000 products is one statement each
 * for inserts and updates.
 */
import { Products } from "@dastyar/domain"
import { SqlClient, SqlSchema } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { prepared } from "../Database/Database"
import { ReadSql } from "../Database/Replicas"
import * as EventLoop from "../Platform/EventLoop"
import { derivedKeys, type ProductFields } from "./SearchKeys"

export const ProductRow = Schema.Struct({
  id: Schema.String,
  externalId: Products.ExternalId,
  title: Schema.String,
  category: Schema.NullOr(Schema.String),
  subcategory: Schema.NullOr(Schema.String),
  attributes: Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean) }),
  description: Schema.NullOr(Schema.String),
  imageUrl: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String),
  price: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  inStock: Schema.Boolean,
  indexState: Products.IndexState,
  indexedAt: Schema.NullOr(Schema.DateTimeUtcFromDate),
  createdAt: Schema.DateTimeUtcFromDate,
  updatedAt: Schema.DateTimeUtcFromDate,
  /** bigint position of first creation (pg sends bigints as strings). */
  position: Schema.String
})
export type ProductRow = typeof ProductRow.Type

/** The API's product: the row without its position. */
export const toProduct = ({ position: _position, ...product }: ProductRow): Products.Product => product

/** One product to write: its identity, all fields, and whether search must index it again. */
export interface ProductWrite {
  readonly id: string
  readonly externalId: string
  readonly fields: ProductFields
  readonly reindex: boolean
}

/** A write as the JSON record `jsonb_to_recordset` reads (snake_case keys, derived keys included). */
const recordOf = (write: ProductWrite) => {
  const keys = derivedKeys(write.externalId, write.fields)
  return {
    id: write.id,
    external_id: write.externalId,
    title: write.fields.title,
    category: write.fields.category,
    subcategory: write.fields.subcategory,
    attributes: write.fields.attributes,
    description: write.fields.description,
    image_url: write.fields.imageUrl,
    url: write.fields.url,
    price: write.fields.price,
    currency: write.fields.currency,
    in_stock: write.fields.inStock,
    category_key: keys.categoryKey,
    subcategory_key: keys.subcategoryKey,
    attribute_keys: keys.attributeKeys,
    lookup_key: keys.lookupKey,
    reindex: write.reindex
  }
}

/** Rows decoded between two turns of the event loop: decoding an import's 1,000 stored rows held every search. */
const rowsPiece = 100
const decodeRows = Schema.decodeUnknown(Schema.Array(ProductRow))

const decodeInPieces = (rows: ReadonlyArray<unknown>) =>
  Effect.gen(function*() {
    const decoded: Array<ProductRow> = []
    for (let start = 0; start < rows.length; start += rowsPiece) {
      if (start > 0) yield* EventLoop.turn
      decoded.push(...(yield* decodeRows(rows.slice(start, start + rowsPiece))))
    }
    return decoded
  })

/** Records derived between two turns of the event loop: an import's 1,000 took every search's turn at once. */
const recordsPiece = 100

/** The writes as the JSON text of their records, derived a piece at a time. */
const recordsJson = (writes: ReadonlyArray<ProductWrite>) =>
  Effect.map(EventLoop.mapInPieces(writes, recordsPiece, (part) => part.map(recordOf)), JSON.stringify)

export class ProductsRepo extends Effect.Service<ProductsRepo>()("ProductsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // List pages may be served by a replica (Database/Replicas.ts); reads after a write use `sql`.
    const readSql = yield* ReadSql

    // `position` is sent as text; ORDER BY must name `products.position` to sort by the number, not the alias.
    const columns = sql`id, external_id, title, category, subcategory, attributes, description, image_url, url,
      price, currency, in_stock, index_state, indexed_at, created_at, updated_at, position::text AS position`

    const recordColumns = sql`x(id text, external_id text, title text, category text, subcategory text,
      attributes jsonb, description text, image_url text, url text, price double precision, currency text,
      in_stock boolean, category_key text, subcategory_key text, attribute_keys jsonb, lookup_key text, reindex boolean)`

    /** The rows of the given externalIds, decoded a piece at a time (an import reads up to 1,000). */
    const findByExternalIds = (
      request: { readonly assistantId: string; readonly externalIds: ReadonlyArray<string> }
    ) =>
      sql`SELECT ${columns} FROM products
          WHERE assistant_id = ${request.assistantId} AND external_id = ANY(${request.externalIds})
          ORDER BY products.position`.pipe(Effect.flatMap(decodeInPieces))

    return {
      findByExternalIds,

      /** Rows for update: other writers of these products wait for this transaction. */
      lockByExternalIds: SqlSchema.findAll({
        Request: Schema.Struct({ assistantId: Schema.String, externalIds: Schema.Array(Schema.String) }),
        Result: ProductRow,
        execute: ({ assistantId, externalIds }) =>
          sql`SELECT ${columns} FROM products
              WHERE assistant_id = ${assistantId} AND external_id = ANY(${externalIds}) FOR UPDATE`
      }),

      /**
       * Serialises catalog writers of one assistant for the rest of the
       * transaction, so the size cap holds under concurrency. NO KEY UPDATE
       * leaves foreign-key checks of other tables (documents, chats) unblocked.
       */
      lockCatalog: (assistantId: string) =>
        sql`SELECT id FROM assistants WHERE id = ${assistantId} FOR NO KEY UPDATE`.pipe(Effect.asVoid),

      count: (assistantId: string) =>
        sql<
          { readonly count: string }
        >`SELECT count(*)::text AS count FROM products WHERE assistant_id = ${assistantId}`
          .pipe(Effect.map((rows) => Number(rows[0]?.count ?? 0))),

      insert: (assistantId: string, writes: ReadonlyArray<ProductWrite>) =>
        writes.length === 0 ? Effect.void : Effect.flatMap(recordsJson(writes), (records) =>
          sql`
          INSERT INTO products (id, assistant_id, external_id, title, category, subcategory, attributes, description,
            image_url, url, price, currency, in_stock, category_key, subcategory_key, attribute_keys, lookup_key)
          SELECT x.id, ${assistantId}, x.external_id, x.title, x.category, x.subcategory, x.attributes, x.description,
            x.image_url, x.url, x.price, x.currency, x.in_stock, x.category_key, x.subcategory_key, x.attribute_keys,
            x.lookup_key
          FROM jsonb_to_recordset(${records}::jsonb) AS ${recordColumns}`.pipe(Effect.asVoid)),

      /** Replaces the fields of existing rows; a write marked `reindex` goes back to `pending`. */
      update: (writes: ReadonlyArray<ProductWrite>) =>
        writes.length === 0 ? Effect.void : Effect.flatMap(recordsJson(writes), (records) =>
          sql`
          UPDATE products p SET
            title = x.title, category = x.category, subcategory = x.subcategory, attributes = x.attributes,
            description = x.description, image_url = x.image_url, url = x.url, price = x.price,
            currency = x.currency, in_stock = x.in_stock, category_key = x.category_key,
            subcategory_key = x.subcategory_key, attribute_keys = x.attribute_keys, lookup_key = x.lookup_key,
            updated_at = now(),
            index_state = CASE WHEN x.reindex THEN 'pending' ELSE p.index_state END,
            index_version = p.index_version + CASE WHEN x.reindex THEN 1 ELSE 0 END,
            index_attempts = CASE WHEN x.reindex THEN 0 ELSE p.index_attempts END,
            index_due_at = CASE WHEN x.reindex THEN now() ELSE p.index_due_at END
          FROM jsonb_to_recordset(${records}::jsonb) AS ${recordColumns}
          WHERE p.id = x.id`.pipe(Effect.asVoid)),

      deleteByExternalIds: (assistantId: string, externalIds: ReadonlyArray<string>) =>
        sql<{ readonly externalId: string }>`
          DELETE FROM products WHERE assistant_id = ${assistantId} AND external_id = ANY(${externalIds})
          RETURNING external_id`.pipe(Effect.map((rows) => rows.length)),

      /** A page in order of first creation, after `afterPosition`; one extra row tells whether more follow. */
      page: SqlSchema.findAll({
        Request: Schema.Struct({
          assistantId: Schema.String,
          afterPosition: Schema.String,
          limit: Schema.Int,
          lookup: Schema.NullOr(Schema.String),
          categoryKey: Schema.NullOr(Schema.String),
          state: Schema.NullOr(Products.IndexState)
        }),
        Result: ProductRow,
        execute: (request) =>
          readSql`SELECT ${columns} FROM products WHERE ${
            sql.and([
              sql`assistant_id = ${request.assistantId}`,
              sql`position > ${request.afterPosition}::bigint`,
              ...(request.lookup === null ? [] : [sql`lookup_key LIKE ${request.lookup} ESCAPE '\\'`]),
              ...(request.categoryKey === null ? [] : [sql`category_key = ${request.categoryKey}`]),
              ...(request.state === null ? [] : [sql`index_state = ${request.state}`])
            ])
          } ORDER BY products.position LIMIT ${request.limit + 1}`
      }),

      byIds: SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: ProductRow,
        execute: (ids) => prepared(sql, sql`SELECT ${columns} FROM products WHERE id = ANY(${ids})`)
      })
    } as const
  })
}) {}
