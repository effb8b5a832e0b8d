import { Products } from "@dastyar/domain"
import { AssistantId } from "@dastyar/domain/Assistants"
import { allProducts, makeEffectClient } from "@dastyar/sdk"
import { TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { accountWithAssistant } from "./support/Account"
import { runCli, serverUrl } from "./support/Cli"

/** A temporary folder with the given files, removed after the test. */
const files = (contents: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-cli-feed-"))
      for (const [name, text] of Object.entries(contents)) fs.writeFileSync(path.join(dir, name), text)
      return (name: string) => path.join(dir, name)
    }),
    (file) => Effect.sync(() => fs.rmSync(path.dirname(file("x")), { recursive: true, force: true }))
  )

/** A shop with an assistant, the CLI's environment for it, and the Effect client to check the catalog directly. */
const shop = Effect.gen(function*() {
  const { assistantId, key } = yield* accountWithAssistant
  const client = yield* makeEffectClient({ baseUrl: "", token: key })
  const assistantCode = AssistantId.make(assistantId)
  const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_API_KEY: key, DASTYAR_ASSISTANT: assistantId }
  const catalog = Stream.runCollect(allProducts(client, assistantCode)).pipe(
    Effect.map((products) => Chunk.toArray(products)),
    Effect.orDie
  )
  const ids = Effect.map(catalog, (products) => products.map((product) => product.externalId))
  const seed = (products: ReadonlyArray<{ readonly externalId: string; readonly title: string }>) =>
    client.products.import({
      path: { assistantCode },
      payload: {
        products: products.map((product) => ({ ...product, externalId: Products.ExternalId.make(product.externalId) }))
      }
    }).pipe(Effect.orDie)
  return { client, assistantCode, env, catalog, ids, seed }
})

const parsed = <A, I>(schema: Schema.Schema<A, I>, stdout: string) =>
  Schema.decodeUnknownSync(Schema.parseJson(schema))(stdout)

const csvFeed = [
  "externalId,title,category,price,inStock,color,capacityMl,dishwasherSafe",
  "tp-1,Blue teapot,Kitchen,890000,true,blue,1000,true",
  "tp-2,Red teapot,Kitchen,450000,false,red,750,false",
  "tp-3,\"Green teapot, large\",Kitchen,990000,yes,green,1500,true",
  "mug-1,Mug,Kitchen,,,white,300,",
  "mug-2,Mug with lid,Kitchen,120000,1,black,350,true"
].join("\n")

layer(TestApp({ DASTYAR_RATE_LIMIT_PER_MINUTE: "100000" }), { excludeTestServices: true })("dastyar products", (it) => {
  it.effect(
    "import: invalid rows listed by line and field and nothing sent; CSV and JSONL feeds sent in batches",
    () =>
      Effect.gen(function*() {
        const { catalog, env, ids } = yield* shop
        const file = yield* files({
          "invalid.csv": "externalId,title,price\nok-1,Fine,10\nbad id,,-3\nok-2,Fine,cheap\n",
          "feed.csv": csvFeed,
          "feed.jsonl": csvFeed.split("\n").slice(1).map((line) => {
            const [externalId = "", title] = line.split(",")
            return JSON.stringify({ externalId, title: externalId === "mug-1" ? "Mug, renamed" : title })
          }).join("\n")
        })

        const invalid = yield* runCli(["products", "import", file("invalid.csv")], env)
        expect(invalid.exitCode).toBe(2)
        expect(invalid.stdout).toBe("")
        expect(invalid.stderr.split("\n")).toEqual([
          `${file("invalid.csv")}:3: externalId: must be 1 to 191 characters with no whitespace, '/' or '\\'`,
          `${file("invalid.csv")}:3: title: is required`,
          `${file("invalid.csv")}:3: price: must be 0 or more`,
          `${file("invalid.csv")}:4: price: must be a number`,
          `error: 2 invalid rows in ${file("invalid.csv")}; nothing was sent`,
          ""
        ])
        expect(yield* ids).toEqual([])

        const csv = yield* runCli(["products", "import", file("feed.csv"), "--batch-size", "2"], env)
        expect(csv.exitCode).toBe(0)
        expect(csv.stderr.trimEnd().split("\n")).toEqual([
          "batch 1/3: 2 products: 2 created, 0 updated, 0 unchanged",
          "batch 2/3: 2 products: 2 created, 0 updated, 0 unchanged",
          "batch 3/3: 1 product: 1 created, 0 updated, 0 unchanged"
        ])
        expect(csv.stdout).toBe("Imported 5 products: 5 created, 0 updated, 0 unchanged.\n")
        const stored = yield* catalog
        expect(stored.map((product) => product.externalId)).toEqual(["tp-1", "tp-2", "tp-3", "mug-1", "mug-2"])
        expect(stored[0]).toMatchObject({
          title: "Blue teapot",
          price: 890000,
          inStock: true,
          attributes: { color: "blue", capacityMl: 1000, dishwasherSafe: true }
        })
        expect(stored[2]).toMatchObject({ title: "Green teapot, large", inStock: true })
        expect(stored[3]).toMatchObject({ price: null, inStock: true, attributes: { color: "white", capacityMl: 300 } })

        // JSONL of the same ids with titles only: a full replacement of each, with one title changed.
        const jsonl = yield* runCli(["products", "import", file("feed.jsonl"), "--json"], env)
        expect(jsonl.exitCode).toBe(0)
        expect(parsed(Products.ProductImportResult, jsonl.stdout)).toEqual({ created: 0, updated: 5, unchanged: 0 })
        const again = yield* runCli(["products", "import", file("feed.jsonl"), "--json"], env)
        expect(parsed(Products.ProductImportResult, again.stdout)).toEqual({ created: 0, updated: 0, unchanged: 5 })
      }).pipe(Effect.scoped),
    240_000
  )

  it.effect(
    "sync --dry-run prints what would change and changes nothing; sync makes the catalog equal the feed",
    () =>
      Effect.gen(function*() {
        const { env, ids, seed } = yield* shop
        yield* seed([
          { externalId: "a", title: "Alpha" },
          { externalId: "b", title: "Beta" },
          { externalId: "c", title: "Gamma" },
          { externalId: "d", title: "Delta" }
        ])
        const file = yield* files({
          "feed.json": JSON.stringify(
            {
              products: [{ externalId: "a", title: "Alpha" }, { externalId: "b", title: "Beta v2" }, {
                externalId: "e",
                title: "Epsilon"
              }]
            },
            null,
            2
          ),
          "empty.json": "[]"
        })
        const [preview, human] = yield* Effect.all([
          runCli(["products", "sync", file("feed.json"), "--dry-run", "--json"], env),
          runCli(["products", "sync", file("feed.json"), "--dry-run"], env)
        ], { concurrency: "unbounded" })
        expect(preview.exitCode).toBe(0)
        expect(JSON.parse(preview.stdout)).toEqual({ create: ["e"], update: ["b"], unchanged: 1, delete: ["c", "d"] })
        expect(human.stdout.split("\n")).toEqual([
          "Dry run: nothing was changed.",
          "change     count  externalIds",
          "create     1      e",
          "update     1      b",
          "unchanged  1",
          "delete     2      c, d",
          ""
        ])
        expect(yield* ids).toEqual(["a", "b", "c", "d"])

        const synced = yield* runCli(["products", "sync", file("feed.json")], env)
        expect(synced.exitCode).toBe(0)
        expect(synced.stdout).toBe("Synced 3 products: 1 created, 1 updated, 1 unchanged, 2 deleted.\n")
        expect(synced.stderr).toMatch(/^batch 1\/1: 3 products: 1 created, 1 updated, 1 unchanged\n/m)
        expect((yield* ids).sort()).toEqual(["a", "b", "e"])

        const empty = yield* runCli(["products", "sync", file("empty.json")], env)
        expect(empty).toMatchObject({ exitCode: 2, stdout: "" })
        expect(empty.stderr).toMatch(/has no products; syncing it would delete the whole catalog/)
        expect((yield* ids).sort()).toEqual(["a", "b", "e"])
      }).pipe(Effect.scoped),
    240_000
  )

  it.effect(
    "search counts facets over every match and sorts by price, in a table and as JSON",
    () =>
      Effect.gen(function*() {
        const { assistantCode, catalog, client, env } = yield* shop
        yield* client.products.import({
          path: { assistantCode },
          payload: {
            products: [
              { externalId: "tp-blue", title: "Blue teapot", category: "Kitchen", price: 50, color: "blue" },
              { externalId: "tp-red", title: "Red teapot", category: "Kitchen", price: 500, color: "red" },
              { externalId: "tp-planter", title: "Teapot planter", category: "Garden", price: 20, color: "green" }
            ].map(({ color, externalId, ...product }) => ({
              ...product,
              externalId: Products.ExternalId.make(externalId),
              attributes: { color }
            }))
          }
        }).pipe(Effect.orDie)
        yield* catalog.pipe(
          Effect.repeat({
            until: (products) => products.every((product) => product.indexState === "synced"),
            schedule: Schedule.spaced("100 millis"),
            times: 100
          })
        )
        const search = [
          "products",
          "search",
          "teapot",
          "--facet",
          "category",
          "--facet",
          "color",
          "--sort",
          "price:desc"
        ]
        const [table, json, badSort] = yield* Effect.all([
          runCli(search, env),
          runCli([...search, "--json"], env),
          runCli(["products", "search", "teapot", "--sort", "cheapest"], env)
        ], { concurrency: 2 })
        expect(table.exitCode).toBe(0)
        expect(table.stdout).toContain("category: Kitchen (2), Garden (1)\n")
        expect(table.stdout).toContain("color: blue (1), green (1), red (1)\n")
        const hits = parsed(Products.ProductSearchResult, json.stdout)
        expect(hits.list.map((hit) => hit.externalId)).toEqual(["tp-red", "tp-blue", "tp-planter"])
        expect(hits.facetDistribution).toEqual({
          category: { Kitchen: 2, Garden: 1 },
          color: { blue: 1, green: 1, red: 1 }
        })
        expect(badSort.exitCode).toBe(2)
      }),
    240_000
  )

  it.effect(
    "list, get, search with filters, delete; a missing assistant is a usage error",
    () =>
      Effect.gen(function*() {
        const { client, assistantCode, env } = yield* shop
        yield* client.products.import({
          path: { assistantCode },
          payload: {
            products: [
              {
                externalId: Products.ExternalId.make("sku-1"),
                title: "Blue ceramic teapot",
                category: "Kitchen",
                price: 50,
                attributes: { color: "blue" }
              },
              {
                externalId: Products.ExternalId.make("sku-2"),
                title: "Red ceramic teapot",
                category: "Kitchen",
                price: 500,
                attributes: { color: "red" }
              },
              { externalId: Products.ExternalId.make("sku-3"), title: "Garden hose", category: "Garden", price: 20 }
            ]
          }
        }).pipe(Effect.orDie)
        // Search sees products once indexed.
        yield* client.products.get({ path: { assistantCode, externalId: "sku-3" } }).pipe(
          Effect.repeat({
            until: (product) => product.indexState === "synced",
            schedule: Schedule.spaced("100 millis"),
            times: 100
          }),
          Effect.orDie
        )

        // Two at a time: each run starts a Node process, and the machine is shared.
        const [page, table, one, search, noAssistant] = yield* Effect.all([
          runCli(["products", "list", "--limit", "2", "--json"], env),
          runCli(["products", "list", "--all"], env),
          runCli(["products", "get", "sku-2"], env),
          runCli([
            "products",
            "search",
            "teapot",
            "--category",
            "kitchen",
            "--attribute",
            "color=blue",
            "--max-price",
            "100",
            "--json"
          ], env),
          runCli(["products", "list"], { ...env, DASTYAR_ASSISTANT: "" })
        ], { concurrency: 2 })
        expect(page.exitCode).toBe(0)
        const first = parsed(Products.ProductPage, page.stdout)
        expect(first.list.map((product) => product.externalId)).toEqual(["sku-1", "sku-2"])
        expect(first.nextCursor).not.toBeNull()
        expect(table.stdout.split("\n").slice(0, 4).map((line) => line.split(/\s+/)[0])).toEqual([
          "externalId",
          "sku-1",
          "sku-2",
          "sku-3"
        ])
        expect(one.stdout).toMatch(/^externalId: +sku-2$/m)
        expect(one.stdout).toMatch(/^attributes: +\{"color":"red"\}$/m)
        expect(search.exitCode).toBe(0)
        const hits = parsed(
          Schema.Struct({ list: Schema.Array(Products.ProductSearchHit), count: Schema.Number }),
          search.stdout
        )
        expect(hits.list.map((hit) => hit.externalId)).toEqual(["sku-1"])
        expect(noAssistant).toEqual({
          exitCode: 2,
          stdout: "",
          stderr: "error: no assistant: pass --assistant or set DASTYAR_ASSISTANT\n"
        })

        const next = yield* runCli([
          "products",
          "list",
          "--limit",
          "2",
          "--cursor",
          first.nextCursor ?? "",
          "--assistant",
          assistantCode,
          "--json"
        ], {
          ...env,
          DASTYAR_ASSISTANT: "ignored-when-flag-given"
        })
        expect(next).toMatchObject({ exitCode: 0, stderr: "" })
        expect(parsed(Products.ProductPage, next.stdout)).toMatchObject({
          list: [{ externalId: "sku-3" }],
          nextCursor: null
        })

        const removed = yield* runCli(["products", "delete", "sku-1", "nope"], env)
        expect(removed).toEqual({ exitCode: 0, stdout: "Deleted 1; not found 1.\n", stderr: "" })
        const gone = yield* runCli(["products", "get", "sku-1"], env)
        expect(gone).toEqual({ exitCode: 1, stdout: "", stderr: "error: 404 products.not_found: Product not found\n" })
      }).pipe(Effect.scoped),
    240_000
  )
})
