/**
 * A thing a question names and the class a document names it by (Search/Kinds.ts): a rule about animals holds
 * for a hamster, one about a province for a town in it, one about public holidays for a festival.
 */
import { describe, expect, it } from "vitest"
import { mentions } from "../../src/Chat/QuestionAnalysis"
import { classesOf } from "../../src/Search/Kinds"
import { paraphraseWords } from "../../src/Search/Lexicon"
import { stem } from "../../src/Search/Stemmer"
import { normalizeText } from "../../src/Search/TextNormalization"
import { answerText } from "./support/Compose"

const root = (word: string) => stem(normalizeText(word))
const declinesEn = /^I don't know/
const declinesFa = /^نمی‌دانم/

describe("the classes a thing belongs to", () => {
  it("relates a thing to its class in either language, one way only", () => {
    expect(classesOf(root("hamster"))).toContain(root("animals"))
    expect(classesOf(root("خرگوش"))).toContain(root("حیوان"))
    expect(classesOf(root("diesel"))).toContain(root("hazardous"))
    expect(classesOf(root("کاشان"))).toContain(root("اصفهان"))
    expect(mentions([root("animals")], root("hamster"))).toBe(true)
    expect(mentions([root("hamster")], root("animals"))).toBe(false)
    expect(classesOf(root("sofa"))).toEqual([])
  })

  it("lets retrieval search the class words below the question's own", () => {
    expect(paraphraseWords("parrot")).toContain("pets")
    expect(paraphraseWords("شهریار")).toContain("تهران")
  })
})

describe("a rule about a class answers for its members", () => {
  const rules = [
    {
      path: "terms.md",
      text: "Visits\n\nGuide dogs are welcome; no other animals are allowed inside. Children under 12 must be with an adult."
    },
    { path: "hours.md", text: "Hours\n\nWe open at 9am and take the last booking at 4pm." }
  ]

  it("answers whether a hamster may come in from the rule about animals", () => {
    expect(answerText("can I bring my hamster inside?", rules)).toContain("no other animals")
  })

  it("declines a thing of no class the passages name", () => {
    expect(answerText("can I bring my skateboard inside?", rules)).toMatch(declinesEn)
  })

  const courier = [
    {
      path: "ersal.md",
      text: "ارسال › شهرهای اطراف\n\nارسال به شهرهای استان اصفهان با نرخ ثابت ۳۰۰ هزار تومان انجام میشود. " +
        "به سایر استان ها ارسال نداریم."
    }
  ]

  it("answers for a town from the rule about its province", () => {
    expect(answerText("به کاشان هم میفرستید؟", courier, { language: "fa" })).toContain("۳۰۰ هزار تومان")
  })

  const closures = [
    {
      path: "saat.md",
      text: "ساعات کاری\n\nشنبه تا پنجشنبه ۹ تا ۱۸ باز هستیم. روزهای تعطیل رسمی فروشگاه بسته است."
    }
  ]

  it("answers for a festival from the rule about public holidays", () => {
    expect(answerText("روز عاشورا بازید؟", closures, { language: "fa" })).toContain("تعطیل رسمی")
    expect(answerText("فروشگاه پارکینگ داره؟", closures, { language: "fa" })).toMatch(declinesFa)
  })
})
