/** Helpers shared by the catalog tests. */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { call, pick, setupAccount } from "../support/TestApp"

export interface Shop {
  readonly key: string
  readonly assistantId: string
}

export const productsUrl = (shop: Shop, rest = "") => `/v1/assistants/${shop.assistantId}/products${rest}`

export const productCall = (
  shop: Shop,
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  rest = "",
  body?: unknown
) => call(method, productsUrl(shop, rest), { token: shop.key, ...(body === undefined ? {} : { body }) })

/** Waits until no product of the shop is pending or failed (the indexer caught up). */
export const waitUntilSynced = (shop: Shop) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 300; attempt++) {
      const pending = yield* productCall(shop, "GET", "?state=pending&limit=1")
      const failed = yield* productCall(shop, "GET", "?state=failed&limit=1")
      const left = [pending, failed].some((reply) => {
        const list = pick(reply.json, "data", "list")
        return Array.isArray(list) && list.length > 0
      })
      if (!left) return
      yield* Effect.sleep("50 millis")
    }
    return yield* Effect.die(new Error("products never reached synced"))
  })

/** External ids of a search reply, best first. */
export const hitIds = (reply: { readonly json: unknown }): Array<string> => listOf(reply).map((hit) => hit.externalId)

const Listed = Schema.Struct({
  externalId: Schema.String,
  title: Schema.String,
  distance: Schema.optional(Schema.Number)
})
const Page = Schema.Struct({
  data: Schema.Struct({ list: Schema.Array(Listed), nextCursor: Schema.optional(Schema.NullOr(Schema.String)) })
})
const FieldErrors = Schema.Struct({ fields: Schema.Array(Schema.Struct({ property: Schema.String })) })

/** The products of a list or search reply. */
export const listOf = (reply: { readonly json: unknown }) => Schema.decodeUnknownSync(Page)(reply.json).data.list

/** The `nextCursor` of a list reply. */
export const nextCursorOf = (reply: { readonly json: unknown }) =>
  Schema.decodeUnknownSync(Page)(reply.json).data.nextCursor ?? null

/** The invalid properties of a validation error. */
export const invalidProperties = (reply: { readonly json: unknown }) =>
  Schema.decodeUnknownSync(FieldErrors)(reply.json).fields.map((field) => field.property)

/**
 * A new shop holding `products`, imported and synced once on first use and shared by a file's tests (run inside
 * the file's `layer`, whose services it uses).
 */
export const sharedShop = (products: ReadonlyArray<object>) =>
  Effect.gen(function*() {
    const shop = yield* setupAccount()
    yield* productCall(shop, "POST", "/import", { products })
    yield* waitUntilSynced(shop)
    return shop
  }).pipe(Effect.cached, Effect.runSync)

/** The external ids a search of `shop` finds for `query`, best first, with `extra` fields in the body. */
export const searchHits =
  <E, R>(shop: Effect.Effect<Shop, E, R>, extra: Record<string, unknown> = {}) =>
  (query: string, more: Record<string, unknown> = {}) =>
    Effect.flatMap(shop, (s) => productCall(s, "POST", "/search", { query, ...extra, ...more })).pipe(
      Effect.map(hitIds)
    )
