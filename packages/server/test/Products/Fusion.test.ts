/**
 * How the meaning side orders keyword matches below a `semanticRatio` of one
 * half: it breaks ties of the keyword rules by each match's own similarity to
 * the query, the same whether the page was filled by keyword matches (no
 * nearest-neighbour read) or not.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { setupAccount, TestApp } from "../support/TestApp"
import { hitIds, productCall, waitUntilSynced } from "./support"

// The same title, so every keyword rule ties; the shorter text is nearer to "kettle" for the offline embedder.
const catalog = [
  { externalId: "far", title: "Kettle", category: "Toys", attributes: { material: "plastic", colour: "yellow" } },
  { externalId: "near", title: "Kettle", category: "Kitchen" }
]

layer(TestApp(), { excludeTestServices: true })("fusion below a semanticRatio of one half", (it) => {
  it.effect("meaning breaks the keyword rules' ties, on a page keyword matches fill and on one they do not", () =>
    Effect.gen(function*() {
      const shop = yield* setupAccount()
      yield* productCall(shop, "POST", "/import", { products: catalog })
      yield* waitUntilSynced(shop)
      const search = (body: Record<string, unknown>) =>
        productCall(shop, "POST", "/search", { query: "kettle", ...body }).pipe(Effect.map(hitIds))
      // Keyword only: catalog order decides the tie.
      expect(yield* search({ semanticRatio: 0 })).toEqual(["far", "near"])
      // Two matches do not fill a page of 20 (the nearest products are read too), and fill a page of 1.
      expect(yield* search({ semanticRatio: 0.3 })).toEqual(["near", "far"])
      expect(yield* search({ semanticRatio: 0.3, limit: 1 })).toEqual(["near"])
      expect(yield* search({ semanticRatio: 0.3, limit: 1, offset: 1 })).toEqual(["far"])
    }))
})
