/**
 * Chunk retrieval runs on the same engine as product search: a misspelt,
 * inflected or Persian (Arabic letter forms, Persian digits) question finds
 * its chunk among unrelated ones, and an English question finds a chunk
 * written only in Persian through the shop-term lexicon.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ChunkSearch } from "../../src/Documents/ChunkSearch"
import { jobIdsOf, upload, waitForJob } from "../Documents/support"
import { setupAccount, TestApp } from "../support/TestApp"

const documents = [
  { name: "warranty.txt", text: "Every samovar carries a two year warranty. Keep the warranty card with the receipt." },
  {
    name: "delivery.txt",
    text: "Orders inside Tehran arrive within two working days; other cities take four to six days."
  },
  { name: "care.txt", text: "Descale the kettle monthly with white vinegar, then rinse it twice with clean water." },
  {
    name: "returns-fa.txt",
    text: "کالای سالم را تا ۱۴ روز پس از تحویل می‌توانید بازگردانید. هزینه ارسال مرجوعی با فروشگاه است."
  },
  { name: "hours-fa.txt", text: "ساعت کاری فروشگاه از ۹ صبح تا ۵ عصر است و جمعه‌ها تعطیل هستیم." }
]

layer(TestApp(), { excludeTestServices: true, timeout: 120_000 })("chunk search on the search engine", (it) => {
  const assistant = Effect.gen(function*() {
    const { assistantId, key } = yield* setupAccount()
    const reply = yield* upload(
      key,
      assistantId,
      documents.map((doc) => ({ name: doc.name, bytes: new TextEncoder().encode(doc.text) }))
    )
    for (const jobId of jobIdsOf(reply)) {
      expect(yield* waitForJob(key, assistantId, jobId)).toMatchObject({ status: "ready" })
    }
    return assistantId
  }).pipe(Effect.cached, Effect.runSync)

  const top = (query: string) =>
    Effect.gen(function*() {
      const assistantId = yield* assistant
      const search = yield* ChunkSearch
      const hits = yield* search.search({ assistantId, query, limit: 3 })
      return hits[0]?.path
    })

  it.effect("misspelt and inflected questions find their chunk", () =>
    Effect.gen(function*() {
      expect(yield* top("samovr waranty")).toBe("warranty.txt")
      expect(yield* top("descaling kettles with vinager")).toBe("care.txt")
      expect(yield* top("how long does delivery to Tehrn take")).toBe("delivery.txt")
    }))

  it.effect("Persian questions with Arabic letter forms and digits find their chunk", () =>
    Effect.gen(function*() {
      expect(yield* top("مرجوعي كالا تا ١٤ روز")).toBe("returns-fa.txt")
      expect(yield* top("ساعت كاري فروشگاه")).toBe("hours-fa.txt")
    }))

  it.effect("an English question finds the chunk only a Persian document holds", () =>
    Effect.gen(function*() {
      expect(yield* top("Within how many days can goods be returned?")).toBe("returns-fa.txt")
      expect(yield* top("return shipping cost")).toBe("returns-fa.txt")
    }))
})
