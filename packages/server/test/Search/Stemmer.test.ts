import { describe, expect, it } from "vitest"
import { colloquialBases, stem } from "../../src/Search/Stemmer"
import { normalizeText, wordsOf } from "../../src/Search/TextNormalization"

/** The stems of a text's words, as search and chat compare them. */
const stems = (text: string) => wordsOf(text).map(stem).join(" ")

const same = (pairs: ReadonlyArray<readonly [string, string]>) => {
  for (const [a, b] of pairs) expect(stems(a), `${a} ≡ ${b}`).toBe(stems(b))
}
const apart = (pairs: ReadonlyArray<readonly [string, string]>) => {
  for (const [a, b] of pairs) expect(stems(a), `${a} ≠ ${b}`).not.toBe(stems(b))
}

describe("Persian letters and spacing", () => {
  it("folds Arabic letter forms, hamza seats and digits to one form", () => {
    same([["كتاب", "کتاب"], ["يك", "یک"], ["مسأله", "مساله"], ["اجزاء", "اجزا"], ["٣", "۳"], ["۳", "3"]])
    expect(normalizeText("خانهٔ")).toBe(normalizeText("خانه"))
  })

  it("reads a word written with a half-space, a space or nothing between its parts as one", () => {
    same([["می‌توانم", "میتوانم"], ["می‌توانم", "می توانم"], ["کتاب‌ها", "کتاب ها"], ["ارزان‌تر", "ارزان تر"]])
    expect(wordsOf("نمی دانم")).toEqual(["نمیدانم"])
  })
})

describe("Persian verbs", () => {
  it("reads present forms with می, نمی, ب or ن and any personal ending as the verb", () => {
    same([
      ["می‌توانم", "توانستند"],
      ["نمی‌توانید", "بتوانیم"],
      ["می‌خرم", "خریدیم"],
      ["بفرستید", "فرستادند"],
      ["نمی‌رسد", "رسیدم"],
      ["می‌آورند", "بیاورید"]
    ])
  })

  it("reads colloquial forms as the standard ones", () => {
    same([["میتونم", "می‌توانم"], ["میشه", "می‌شود"], ["میخوام", "می‌خواهم"], ["برمیگردونم", "برمی‌گردانم"]])
  })

  it("reads participles, infinitives and perfect forms as the verb", () => {
    same([["رسیده", "رسیدند"], ["رسیده‌است", "رسید"], ["برگرداندن", "برگردانید"], ["کرده‌اند", "می‌کنیم"]])
  })

  it("keeps a compound verb's preverb, and reads both preverbs of returning as one", () => {
    same([["بازگردانید", "برگردانم"], ["بازمی‌گردانید", "برمی‌گردونم"], ["بازگشت", "برگشتند"], ["برگشت", "برگردانم"]])
    same([["دریافت", "دریافتید"], ["درخواست", "درخواستند"]])
    apart([["برگرداندم", "گرداندم"], ["دریافت", "یافت"], ["برداشت", "داشت"]])
  })

  it("strips ب or ن only before a verb it knows", () => {
    apart([["بازار", "ازار"], ["نقشه", "قشه"], ["برند", "رند"], ["بیمه", "مه"], ["نیاز", "یاز"]])
    expect(stem("بازار")).toBe("بازار")
    expect(stem("برند")).toBe("برند")
  })

  it("does not read a noun that looks like a verb's stem as the verb", () => {
    apart([["ده", "داد"], ["بخشی", "بخشید"], ["برای", "امد"]])
  })
})

describe("Persian nouns", () => {
  it("drops plural endings ها, های, ان and ات", () => {
    same([["کتاب‌ها", "کتاب"], ["کتاب‌هایی", "کتاب"], ["مشتریان", "مشتری"], ["محصولات", "محصول"], ["هزینه‌های", "هزینه"]])
  })

  it("drops the ezafe or indefinite ی, comparative and possessive endings", () => {
    same([["کتابی", "کتاب"], ["کالای", "کالا"], ["قیمتی", "قیمت"], ["ارزان‌تر", "ارزان"], ["سفارشتان", "سفارش"]])
  })

  it("keeps words whose ending only looks like a plural", () => {
    apart([["تهران", "تهر"], ["استان", "است"], ["ارزان", "ارز"], ["خیابان", "خیاب"], ["گلدان", "گلد"]])
    same([["استان‌ها", "استان"], ["خیابان‌ها", "خیابان"]])
  })
})

describe("English", () => {
  it("keeps its plural, tense and adverb endings", () => {
    same([["teapots", "teapot"], ["delivering", "deliver"], ["returned", "return"], ["batteries", "battery"]])
    apart([["ship", "shop"], ["return", "retain"]])
  })
})

describe("Persian words that only look inflected", () => {
  it("keeps -تر that is part of the word, and strips the comparative", () => {
    apart([["فیلتر", "فیل"], ["دفتر", "دف"], ["سانتیمتر", "سانتیم"], ["لیتر", "لی"]])
    same([["ارزان‌تر", "ارزان"], ["سریع‌تر", "سریع"]])
  })

  it("reads a colloquial present stem of a listed verb ('بشورم') as the verb", () => {
    same([["بشورم", "شستم"], ["میشورید", "شستند"]])
  })
})

describe("colloquial Persian bases", () => {
  it("strips one or two colloquial endings and the colloquial plural under them", () => {
    expect(colloquialBases("کابلمم")).toContain("کابل")
    expect(colloquialBases("عکسامو")).toContain("عکس")
    expect(colloquialBases("گلای")).toContain("گل")
  })

  it("strips a shorter ending when the longest would leave too little of a short word", () => {
    expect(colloquialBases("کرمو")).toContain("کرم")
    expect(colloquialBases("کیفمو")).toContain("کیف")
  })

  it("gives the written 'ān' of a spoken 'ūn'", () => {
    expect(colloquialBases("خونه")).toContain("خانه")
    expect(colloquialBases("تموم")).toContain("تمام")
  })

  it("gives nothing for a word without such endings or for another script", () => {
    expect(colloquialBases("کتاب")).toEqual([])
    expect(colloquialBases("parcels")).toEqual([])
    expect(colloquialBases("pizza")).toEqual([])
  })
})
