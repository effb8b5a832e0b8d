/**
 * Chunk retrieval reads questions as customers type them: Persian with
 * spoken endings, Arabic letters and either digit script finds its chunk,
 * a question in one language finds a passage only the other language's
 * document holds (the shop vocabulary), and plain English questions keep
 * finding theirs.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ChunkSearch } from "../../src/Documents/ChunkSearch"
import { jobIdsOf, upload, waitForJob } from "../Documents/support"
import { setupAccount, TestApp } from "../support/TestApp"

const documents = [
  {
    name: "shipping-fa.txt",
    text: "ارسال به همه شهرهای ایران انجام می‌شود. تحویل در تهران یک روز و در سایر استان‌ها سه تا پنج روز کاری طول می‌کشد."
  },
  {
    name: "warranty-fa.txt",
    text: "همه کالاها دارای گارانتی اصالت هستند. مدت گارانتی دستگاه‌ها هجده ماه از تاریخ خرید است."
  },
  { name: "store-fa.txt", text: "فروشگاه ما در شیراز، خیابان زند قرار دارد و شنبه تا پنجشنبه باز است." },
  { name: "installments-en.txt", text: "You can pay in four monthly installments on orders over 2 million toman." },
  { name: "care-en.txt", text: "Wipe the kettle with a damp cloth and descale it every month with vinegar." }
]

layer(TestApp(), { excludeTestServices: true, timeout: 120_000 })("chunk retrieval of typed questions", (it) => {
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

  it.effect("a Persian question with spoken endings finds the chunk of the written words", () =>
    Effect.gen(function*() {
      expect(yield* top("آدرس مغازتون کجاست؟")).toBe("store-fa.txt")
      expect(yield* top("جنساتون گارانتی دارن؟")).toBe("warranty-fa.txt")
    }))

  it.effect("Arabic letters, no half-space and either digit script find the same chunk", () =>
    Effect.gen(function*() {
      expect(yield* top("گارانتي دستگاه ها چند ماهه؟")).toBe("warranty-fa.txt")
      expect(yield* top("ارسال به شهرستان ٣ روز طول ميكشه؟")).toBe("shipping-fa.txt")
    }))

  it.effect("an English question finds a passage only a Persian document holds", () =>
    Effect.gen(function*() {
      expect(yield* top("How many days does delivery to other provinces take?")).toBe("shipping-fa.txt")
      expect(yield* top("Is there a warranty?")).toBe("warranty-fa.txt")
    }))

  it.effect("a Persian question finds a passage only an English document holds", () =>
    Effect.gen(function*() {
      expect(yield* top("پرداخت قسطی دارین؟")).toBe("installments-en.txt")
    }))

  it.effect("an English question keeps finding its English chunk", () =>
    Effect.gen(function*() {
      expect(yield* top("how do I descale the kettle")).toBe("care-en.txt")
      expect(yield* top("can I pay in installments?")).toBe("installments-en.txt")
    }))
})
