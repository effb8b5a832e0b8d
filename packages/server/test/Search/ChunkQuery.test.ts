/**
 * How chunk retrieval reads a question: subject words count, question words
 * and fillers do not, colloquial Persian endings and number notations give
 * other forms, shop terms bring their words of the other language, and the
 * answerer's paraphrases the wordings a passage may use instead.
 */
import { describe, expect, it } from "@effect/vitest"
import { parseChunkQuery } from "../../src/Documents/ChunkQuery"
import { relatedWords } from "../../src/Search/CrossLanguage"

const parsed = (question: string) => new Map(parseChunkQuery(question).map((word) => [word.word, word]))

describe("chunk queries", () => {
  it("question words and fillers do not count, subject words do", () => {
    const words = parsed("لطفا بگین گارانتی یخچال چقدره؟")
    expect(words.get("گارانتی")?.counts).toBe(true)
    expect(words.get("یخچال")?.counts).toBe(true)
    expect(words.get("لطفا")?.counts).toBe(false)
    expect(words.get("بگین")?.counts).toBe(false)
    const english = parsed("What do I do if the lamp doesn't work?")
    expect(english.get("lamp")?.counts).toBe(true)
    expect(english.get("doesn")?.counts).toBe(false)
    expect(english.get("t")?.counts).toBe(false)
  })

  it("a question made only of question words still searches them", () => {
    expect(parseChunkQuery("what is it?").every((word) => word.counts)).toBe(true)
  })

  it("a follow-up after a long question keeps its own words and the question's subject", () => {
    const previous = "could you please tell me if you would be able to help me and what the warranty on the fridge is?"
    const words = parseChunkQuery(`${previous}\nand the washing machine?`).map((word) => word.word)
    expect(words.length).toBeLessThanOrEqual(16)
    expect(words).toEqual(expect.arrayContaining(["warranty", "fridge", "washing", "machine"]))
  })

  it("a colloquial ending gives the written form of the word", () => {
    expect(parsed("کفشاتون").get("کفشاتون")?.forms).toContain("کفش")
    expect(parsed("سبدم").get("سبدم")?.forms).toContain("سبد")
    expect(parsed("میزو").get("میزو")?.forms).toContain("میز")
    // Speech drops the final "ه" before a clitic: "خونتون" is "خونه‌تون".
    expect(parsed("خونتون").get("خونتون")?.forms).toContain("خونه")
  })

  it("a question word with a colloquial ending is still a question word", () => {
    expect(parsed("فروشگاه کجاست").get("کجاست")?.counts).toBe(false)
  })

  it("Arabic letters, digits of either script and the half-space fold before parsing", () => {
    expect([...parsed("گارانتي ۱۲ ماهه كالا").keys()]).toEqual(["گارانتی", "12", "ماهه", "کالا"])
  })

  it("a number in digits also reads as its words, and a number word as digits", () => {
    expect(parsed("3 days").get("3")?.forms).toEqual(expect.arrayContaining(["three", "سه"]))
    expect(parsed("هفت روز").get("هفت")?.forms).toContain("7")
  })

  it("a shop term brings its words of the other language", () => {
    expect(relatedWords("warranty")).toContain("گارانتی")
    expect(relatedWords("قسط")).toContain("installment")
    expect(relatedWords("delivery")).toContain("ارسال")
    expect(relatedWords("مرجوعی")).toContain("return")
  })

  it("a word of the answerer's paraphrases brings the wordings a passage may state it with", () => {
    const freeze = parsed("can I freeze my plan?").get("freeze")
    expect(freeze?.paraphrases).toEqual(expect.arrayContaining(["pause", "suspend"]))
    expect(parsed("rinse").get("rinse")?.paraphrases).toContain("wipe")
  })

  it("a paraphrase repeats no related word of the shop vocabulary", () => {
    const wash = parsed("wash").get("wash")
    expect(wash?.related.length).toBeGreaterThan(0)
    expect(wash?.paraphrases.some((word) => wash.related.includes(word))).toBe(false)
    expect(parsed("samovar").get("samovar")?.paraphrases).toEqual([])
  })

  it("a word outside the shop vocabulary brings nothing", () => {
    expect(relatedWords("samovar")).toEqual([])
  })
})
