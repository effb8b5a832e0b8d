/** The product routes: ownership of `:assistantCode`, then the catalog or search. */
import { Auth, DastyarApi, Products, WireEncoder } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { Assistants } from "../Assistants/Assistants"
import * as Success from "../Platform/Success"
import { Catalog, type CatalogOwner } from "./Catalog"
import { importPayload } from "./ImportPayload"
import { ProductSearch } from "./ProductSearch"

// The two frequent reads answer with rows the service built: encoded without the schema's re-checks.
const encodePage = WireEncoder.make(Products.ProductPage)
const encodeHits = WireEncoder.make(Products.ProductSearchResult)

export const ProductsHttpLive = HttpApiBuilder.group(DastyarApi, "products", (handlers) =>
  Effect.gen(function*() {
    const assistants = yield* Assistants
    const catalog = yield* Catalog
    const products = yield* ProductSearch

    /** The caller's account and the assistant behind `:assistantCode`, or 404 `assistants.not_found`. */
    const ownerOf = (assistantCode: string) =>
      Effect.gen(function*() {
        const caller = yield* Auth.CurrentAccount
        const assistantId = yield* assistants.requireOwnership(caller, assistantCode)
        return { accountId: caller.accountId, assistantId } satisfies CatalogOwner
      })

    return handlers
      .handle("create", ({ path, payload }) =>
        ownerOf(path.assistantCode).pipe(Effect.flatMap((owner) => catalog.create(owner, payload))))
      .handle("list", ({ path, urlParams }) =>
        ownerOf(path.assistantCode).pipe(
          Effect.flatMap((owner) =>
            catalog.list(owner.assistantId, urlParams)
          ),
          Effect.flatMap((page) => Success.json(encodePage(page)))
        ))
      // Raw: the body is decoded a piece at a time (ImportPayload.ts), as the framework would, before the handler.
      .handleRaw("import", ({ path, request }) =>
        Effect.flatMap(importPayload(request), (payload) =>
          ownerOf(path.assistantCode).pipe(Effect.flatMap((owner) => catalog.importAll(owner, payload.products)))))
      .handle("bulkDelete", ({ path, payload }) =>
        ownerOf(path.assistantCode).pipe(
          Effect.flatMap((owner) => catalog.bulkDelete(owner.assistantId, payload.externalIds))
        ))
      .handle("search", ({ path, payload }) =>
        // The ownership check is remembered (Assistants.requireOwnership), so it is nearly always answered
        // without a statement: running the search beside it saved a round trip only on a miss, and the two
        // fibers it took cost every search more than that.
        ownerOf(path.assistantCode).pipe(
          Effect.flatMap((owner) =>
            // The facet counts are a statement of their own over the whole match set: sent beside the search's,
            // on another connection, they add the longer of the two to the answer's time, not their sum.
            Effect.all([
              products.search(owner.assistantId, payload),
              payload.facets === undefined ? Effect.succeed(undefined) : products.facets(owner.assistantId, payload)
            ], { concurrency: payload.facets === undefined ? 1 : 2 })
          ),
          Effect.flatMap(([list, facetDistribution]) =>
            Success.json(
              encodeHits({
                list,
                count: list.length,
                ...(facetDistribution === undefined ? {} : { facetDistribution })
              })
            )
          )
        ))
      .handle("get", ({ path }) =>
        ownerOf(path.assistantCode).pipe(Effect.flatMap((owner) =>
          catalog.get(owner.assistantId, path.externalId)
        )))
      .handle("replace", ({ path, payload }) =>
        ownerOf(path.assistantCode).pipe(Effect.flatMap((owner) =>
          catalog.replace(owner, path.externalId, payload)
        )))
      .handle("update", ({ path, payload }) =>
        ownerOf(path.assistantCode).pipe(
          Effect.flatMap((owner) =>
            catalog.update(owner.assistantId, path.externalId, payload)
          )
        ))
      .handle("delete", ({ path }) =>
        ownerOf(path.assistantCode).pipe(
          Effect.flatMap((owner) => catalog.remove(owner.assistantId, path.externalId)),
          Effect.as(null)
        ))
  }))
