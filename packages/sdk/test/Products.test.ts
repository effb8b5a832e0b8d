import { AssistantId } from "@dastyar/domain/Assistants"
import { ExternalId } from "@dastyar/domain/Products"
import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { DastyarApiError } from "../src/DastyarApiError"
import { makeEffectClient } from "../src/EffectClient"
import { allProducts, bulkDelete, importAll, productPages, waitUntilIndexed } from "../src/EffectProducts"
import { type ImportedBatch, jsonBytes } from "../src/ProductBatches"
import { createDastyarClient } from "../src/PromiseClient"
import { againstServer, rejectionOf, serverUrl, setupAccount, TestApp } from "./support/Server"

const apiError = async (pending: Promise<unknown>): Promise<DastyarApiError> => {
  const error = await rejectionOf(pending)
  if (!(error instanceof DastyarApiError)) throw new Error(`expected DastyarApiError, got ${String(error)}`)
  return error
}

const feed = (count: number, prefix = "sku") =>
  Array.from({ length: count }, (_, index) => ({
    externalId: `${prefix}-${index}`,
    title: `Teapot model ${index}`,
    category: "Kitchen",
    attributes: { capacityMl: 500 + index, dishwasherSafe: index % 2 === 0 },
    price: 1000 + index
  }))

/** A client with a fresh account's key and its assistant's id. */
const shop = async (baseUrl: string) => {
  const { key, assistant } = await setupAccount(baseUrl)
  return { client: createDastyarClient({ baseUrl, apiKey: key.key }), assistant: assistant.id, key: key.key }
}

// Many small requests per test: the per-route limit of 60 a minute is not under test here.
layer(TestApp({ DASTYAR_RATE_LIMIT_PER_MINUTE: "100000" }), { excludeTestServices: true })("SDK products", (it) => {
  it.effect(
    "one method per route: create, get, replace, update, delete, with typed errors",
    () =>
      againstServer(async (baseUrl) => {
        const { client, assistant } = await shop(baseUrl)
        const created = await client.products.create(assistant, {
          externalId: "sku-1",
          title: "Blue teapot",
          category: "Kitchen",
          attributes: { capacityMl: 1000, color: "blue", dishwasherSafe: true },
          price: 890000,
          currency: "IRR"
        })
        expect(created).toMatchObject({ externalId: "sku-1", inStock: true, attributes: { capacityMl: 1000 } })
        expect(await client.products.get(assistant, "sku-1")).toMatchObject({ id: created.id, title: "Blue teapot" })

        const taken = await apiError(client.products.create(assistant, { externalId: "sku-1", title: "Again" }))
        expect(taken).toMatchObject({ httpStatus: 409, code: "products.external_id_taken" })

        const replaced = await client.products.replace(assistant, "sku-1", { title: "Red teapot" })
        expect(replaced).toMatchObject({ title: "Red teapot", category: null, attributes: {}, price: null })
        const updated = await client.products.update(assistant, "sku-1", { price: 5, currency: null })
        expect(updated).toMatchObject({ title: "Red teapot", price: 5, currency: null })

        expect(await client.products.delete(assistant, "sku-1")).toBeNull()
        const gone = await apiError(client.products.get(assistant, "sku-1"))
        expect(gone).toMatchObject({ httpStatus: 404, status: "not_found", code: "products.not_found" })
        const invalid = await apiError(client.products.create(assistant, { externalId: "has space", title: "" }))
        expect(invalid.httpStatus).toBe(400)
        expect(invalid.fields.map((field) => field.property).sort()).toEqual(["externalId", "title"])
      }),
    60_000
  )

  it.effect("pages and all iterate every page by cursor, in order of creation", () =>
    againstServer(async (baseUrl) => {
      const { client, assistant } = await shop(baseUrl)
      const products = feed(7)
      expect(await client.products.import(assistant, products)).toEqual({ created: 7, updated: 0, unchanged: 0 })

      const pages = []
      for await (const page of client.products.pages(assistant, { limit: 3 })) pages.push(page)
      expect(pages.map((page) => page.list.length)).toEqual([3, 3, 1])
      expect(pages.map((page) => page.nextCursor === null)).toEqual([false, false, true])

      const ids = []
      for await (const product of client.products.all(assistant, { limit: 2 })) ids.push(product.externalId)
      expect(ids).toEqual(products.map((product) => product.externalId))

      // Filters pass through to every page.
      const matching = []
      for await (const product of client.products.all(assistant, { limit: 1, q: "model 1" })) matching.push(product)
      expect(matching.map((product) => product.externalId)).toEqual(["sku-1"])
    }), 60_000)

  it.effect(
    "importAll splits by the item and byte limits, sums the counts, reports each batch",
    () =>
      againstServer(async (baseUrl) => {
        const { client, assistant } = await shop(baseUrl)
        const products = feed(10)
        const batches: Array<ImportedBatch<unknown>> = []
        const first = await client.products.importAll(assistant, products, {
          limits: { maxItems: 4 },
          onBatch: (batch) => batches.push(batch)
        })
        expect(first).toEqual({ created: 10, updated: 0, unchanged: 0 })
        // Batches count from 1, as the CLI's progress does.
        expect(batches.map(({ batch, batches, size }) => [batch, batches, size])).toEqual([[1, 3, 4], [2, 3, 4], [
          3,
          3,
          2
        ]])
        expect(batches[2]?.result).toEqual({ created: 2, updated: 0, unchanged: 0 })

        // A byte limit that fits three products per body; two of them changed since.
        const changed = products.map((product, index) =>
          index < 2 ? { ...product, title: `${product.title} v2` } : product
        )
        const maxBytes = jsonBytes({ products: changed.slice(0, 3) })
        let requests = 0
        const second = await client.products.importAll(assistant, changed, {
          limits: { maxBytes },
          onBatch: () => requests++
        })
        expect(second).toEqual({ created: 0, updated: 2, unchanged: 8 })
        expect(requests).toBe(4)

        const duplicate = await apiError(client.products.importAll(assistant, [...feed(2), ...feed(1)]))
        expect(duplicate).toMatchObject({ httpStatus: 400, code: "products.duplicate_external_id" })
      }),
    60_000
  )

  it.effect(
    "bulkDelete counts unknown ids as notFound; search answers {list, count}",
    () =>
      againstServer(async (baseUrl) => {
        const { client, assistant } = await shop(baseUrl)
        await client.products.import(assistant, feed(3))
        expect(await client.products.bulkDelete(assistant, ["sku-0", "sku-1", "nope"])).toEqual({
          deleted: 2,
          notFound: 1
        })
        const left = []
        for await (const product of client.products.all(assistant)) left.push(product.externalId)
        expect(left).toEqual(["sku-2"])

        // Wait until the remaining product is indexed, then find it by meaning of its title.
        expect(await client.products.waitUntilIndexed(assistant, ["sku-2"], { initialDelayMs: 20 })).toEqual({
          failed: []
        })
        expect((await client.products.get(assistant, "sku-2")).indexState).toBe("synced")
        const found = await client.products.search(assistant, { query: "teapot", category: "kitchen", limit: 5 })
        expect(found.count).toBe(found.list.length)
        expect(found.list.map((hit) => hit.externalId)).toEqual(["sku-2"])
        expect(typeof found.list[0]?.distance).toBe("number")
      }),
    60_000
  )

  it.effect(
    "Effect helpers: productPages and allProducts stream every page; importAll batches",
    () =>
      Effect.gen(function*() {
        const baseUrl = yield* serverUrl
        const { assistant, key } = yield* Effect.promise(() => shop(baseUrl))
        const client = yield* makeEffectClient({ baseUrl, token: key })
        const assistantCode = AssistantId.make(assistant)
        const products = feed(5, "fx").map((product) => ({
          ...product,
          externalId: ExternalId.make(product.externalId)
        }))
        const sizes: Array<number> = []
        const counts = yield* importAll(client, assistantCode, products, {
          limits: { maxItems: 2 },
          onBatch: ({ size }) => Effect.sync(() => sizes.push(size))
        })
        expect(counts).toEqual({ created: 5, updated: 0, unchanged: 0 })
        expect(sizes).toEqual([2, 2, 1])
        const pages = yield* Stream.runCollect(productPages(client, assistantCode, { limit: 2 }))
        expect(Chunk.toArray(pages).map((page) => page.list.length)).toEqual([2, 2, 1])
        const all = yield* Stream.runCollect(allProducts(client, assistantCode, { limit: 4 }))
        expect(Chunk.toArray(all).map((product) => product.externalId)).toEqual(
          products.map(({ externalId }) => externalId)
        )

        // Every product of the catalog indexed, then a bulk delete with its running totals.
        expect(yield* waitUntilIndexed(client, assistantCode, undefined, { initialDelay: "20 millis" })).toEqual({
          failed: []
        })
        const pending = yield* client.products.list({ path: { assistantCode }, urlParams: { state: "pending" } })
        expect(pending.list).toEqual([])
        const totals: Array<number> = []
        const deleted = yield* bulkDelete(client, assistantCode, ["fx-0", "fx-1", "none"], (total) =>
          Effect.sync(() =>
            totals.push(total.deleted)
          ))
        expect(deleted).toEqual({ deleted: 2, notFound: 1 })
        expect(totals).toEqual([2])
      }).pipe(Effect.provide(FetchHttpClient.layer)),
    60_000
  )
})
