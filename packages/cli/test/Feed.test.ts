import { ExternalId } from "@dastyar/domain/Products"
import { ProductFeed } from "@dastyar/sdk"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { readFeed } from "../src/Feed/Feed"
import { problemLine } from "../src/Feed/FeedImport"
import { syncPlan } from "../src/Feed/SyncPlan"

/** Writes `text` to a temporary file named `name` and reads it as a feed. */
const feedOf = (name: string, text: string) =>
  Effect.acquireUseRelease(
    Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-feed-"))),
    (dir) => {
      const file = path.join(dir, name)
      fs.writeFileSync(file, text)
      return readFeed(file, undefined)
    },
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )

describe("JSON feeds", () => {
  it.effect("invalid JSON is unreadable with the line of the error", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(feedOf("feed.json", "[\n{\"externalId\": \"a\"},\n{oops}\n]"))
      expect(error.message).toMatch(/^cannot read the feed .*feed\.json: not valid JSON \(line 3: /)
      const shape = yield* Effect.flip(feedOf("feed.json", "{\"items\": []}"))
      expect(shape.message).toMatch(/expected an array of products or an object/)
    }))

  it.effect("JSON Lines: one object a line; a broken line is a problem of that line", () =>
    Effect.gen(function*() {
      const feed = yield* feedOf(
        "feed.jsonl",
        "{\"externalId\": \"a\", \"title\": \"A\"}\n\n{broken\n{\"externalId\": \"c\", \"title\": \"C\"}\n"
      )
      expect(feed.rows.map((row) => row.line)).toEqual([1, 4])
      expect(feed.problems).toEqual([{ line: 3, message: expect.stringMatching(/^not valid JSON/) }])
    }))
})

describe("checking a feed", () => {
  it.effect("reports each invalid row with its line and field, in the chosen language; repeats are caught", () =>
    Effect.gen(function*() {
      const csv = [
        "externalId,title,price,url",
        "ok-1,Fine,10,",
        "has space,,-1,ftp://nope",
        "ok-1,Again,5,",
        "ok-2,Fine too,cheap,"
      ].join("\n")
      const feed = yield* feedOf("feed.csv", csv)
      const checked = ProductFeed.checkFeed(feed, "en")
      expect(checked.products.map((product) => product.externalId)).toEqual(["ok-1"])
      const lines = checked.problems.map((problem) => problemLine("feed.csv", problem))
      expect(lines).toEqual([
        expect.stringMatching(/^feed\.csv:3: externalId: /),
        "feed.csv:3: title: is required",
        "feed.csv:3: url: must be an http(s) address of at most 2048 characters",
        "feed.csv:3: price: must be 0 or more",
        "feed.csv:4: externalId: ok-1 repeats line 2",
        expect.stringMatching(/^feed\.csv:5: price: /)
      ])
      const persian = ProductFeed.checkFeed(feed, "fa").problems.find((problem) => problem.field === "title")
      expect(persian?.message).toBe("الزامی است")
    }))
})

describe("sync plan", () => {
  const stored = (externalId: string, title: string) => ({
    externalId: ExternalId.make(externalId),
    title,
    category: null,
    subcategory: null,
    attributes: { size: 2 },
    description: null,
    imageUrl: null,
    url: null,
    price: 5,
    currency: null,
    inStock: true
  })

  it("new ids are created, differing ones updated, identical ones unchanged, absent ones deleted", () => {
    const feed = [
      { externalId: "same", title: "Same", attributes: { size: 2 }, price: 5 },
      { externalId: "title", title: "New title", attributes: { size: 2 }, price: 5 },
      // Full replacement: leaving out price clears it, which is a change.
      { externalId: "cleared", title: "Cleared", attributes: { size: 2 } },
      { externalId: "fresh", title: "Fresh" }
    ].map((product) => ({ ...product, externalId: ExternalId.make(product.externalId) }))
    const plan = syncPlan(feed, [
      stored("same", "Same"),
      stored("title", "Old"),
      stored("cleared", "Cleared"),
      stored("gone", "Gone")
    ])
    expect(plan).toEqual({ create: ["fresh"], update: ["title", "cleared"], unchanged: ["same"], delete: ["gone"] })
  })
})
