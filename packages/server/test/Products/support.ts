/** Helpers shared by the catalog tests. */
import * as Effect from "effect/Effect"
import { call, pick } from "../support/TestApp"

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
export const hitIds = (reply: { readonly json: unknown }): ReadonlyArray<string> => {
  const list = pick(reply.json, "data", "list")
  return Array.isArray(list) ? list.map((hit) => String(pick(hit, "externalId"))) : []
}
