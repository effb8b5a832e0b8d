import { describe, expect, it } from "vitest"
import { analyzeQuestion, mentions } from "../../src/Chat/QuestionAnalysis"
import { isProductKind, rewritePhrases, synonymsOf } from "../../src/Search/Lexicon"
import { stem } from "../../src/Search/Stemmer"
import { normalizeText } from "../../src/Search/TextNormalization"

const root = (word: string) => stem(normalizeText(word))

describe("which words of a question are its subject", () => {
  it("does not take a number written in words for the subject", () => {
    const question = analyzeQuestion("کتری من سی و دو روزه خرابه، چی میشه؟")
    expect(question.subject).not.toContain(root("سی"))
    expect(question.subject).toContain(root("کتری"))
  })

  it("reads a known city with a personal ending as the city, and other words as they are", () => {
    expect(analyzeQuestion("من شیرازم، کی میرسه؟").places).toContain(root("شیراز"))
    expect(analyzeQuestion("من شیرازم، کی میرسه؟").roots).toContain(root("شیراز"))
    expect(analyzeQuestion("کفشم پاره شده").places).toEqual([])
  })

  it("does not take colloquial pronoun forms ('برام', 'خودم') for the subject", () => {
    const question = analyzeQuestion("خودم برام نصبش میکنم؟")
    expect(question.subject).not.toContain(root("برام"))
    expect(question.subject).not.toContain(root("خودم"))
  })
})

describe("Persian words that name nothing", () => {
  it("drops 'بعد از' and 'پس از' (after), a light verb's infinitive and 'بدون' (without)", () => {
    const roots = analyzeQuestion("بعد از تموم شدن گارانتی بدون فاکتور چی؟").roots
    for (const word of ["بعد", "شدن", "بدون", "دانست"]) expect(roots).not.toContain(root(word))
    expect(roots).toContain(root("فاکتور"))
  })

  it("reads 'گیر میاد' as being available, as a passage states it", () => {
    expect(analyzeQuestion("قطعه‌اش گیر میاد؟").roots).toContain(root("موجود"))
    expect(mentions([root("ارائه")], root("موجود"))).toBe(true)
  })

  it("reads 'accepted' and 'valid' as one", () => {
    expect(mentions([root("معتبر")], root("قبول"))).toBe(true)
    expect(mentions([root("فاکتور")], root("قبول"))).toBe(false)
  })
})

describe("what kind of value a Persian question asks for", () => {
  it("reads 'کی' before a verb as when", () => {
    expect(analyzeQuestion("سفارشم کی برمیگرده؟").expected).toBe("duration")
    expect(analyzeQuestion("سفارشم کی میرسه؟").expected).toBe("duration")
  })

  it("reads a time unit with the colloquial 'is' ending ('چند ماهه') as the unit", () => {
    expect(analyzeQuestion("گارانتیش چند ماهه؟")).toMatchObject({ expected: "duration", unit: root("ماه") })
    expect(analyzeQuestion("چند تا کتاب دارین؟").expected).toBe("count")
  })

  it("reads 'کی برام' as who, not when", () => {
    expect(analyzeQuestion("کولر رو کی برام نصب میکنه؟").expected).toBe("any")
  })

  it("reads 'کی' a few words before its verb as when, and a word with a possessive ending as no place", () => {
    expect(analyzeQuestion("بیعانه کی به کارتم برمیگرده؟")).toMatchObject({ expected: "duration", maybePlaces: [] })
  })

  it("reads a magnitude after 'چند' as no unit, and tuition as a price", () => {
    expect(analyzeQuestion("بدون پیش پرداخت تا چند میلیون وام میدین؟")).toMatchObject({ expected: "count", unit: undefined })
    expect(analyzeQuestion("شهریه دوره زبان چقدره؟").expected).toBe("price")
  })
})

describe("what kind of value an English question asks for", () => {
  it("reads 'how far ahead' and 'how much notice' as a duration", () => {
    expect(analyzeQuestion("How far ahead should I book a table?").expected).toBe("duration")
    expect(analyzeQuestion("How much notice do you need for a party platter?").expected).toBe("duration")
  })

  it("reads 'what if' and 'what happens if' as asking what holds in that case, naming no thing", () => {
    expect(analyzeQuestion("What happens if I miss a lesson?")).toMatchObject({
      expected: "condition",
      focus: undefined
    })
    expect(analyzeQuestion("اگه کلاس رو غیبت کنم چی میشه؟").expected).toBe("condition")
    expect(analyzeQuestion("If I order today, when does it arrive?").expected).toBe("duration")
  })
})

describe("synonyms", () => {
  it("reads the shop terms from the shop vocabulary, in both languages", () => {
    expect(synonymsOf(root("kettle"))).toContain(root("کتری"))
    expect(synonymsOf(root("ship"))).toContain(root("ارسال"))
  })

  it("knows kinds of goods, but not each part of a hyphenated name ('washing-machine' is no 'machine')", () => {
    expect(isProductKind(root("یخچال"))).toBe(true)
    expect(isProductKind(root("fridge"))).toBe(true)
    expect(isProductKind(root("machine"))).toBe(false)
    expect(isProductKind(root("guarantee"))).toBe(false)
  })

  it("does not make 'open' a synonym of 'sealed'", () => {
    expect(synonymsOf(root("باز"))).not.toContain(root("پلمب"))
  })

  it("matches a word that only asks for time by itself, a shop term by its synonyms", () => {
    expect(mentions([root("زمان")], root("وقت"))).toBe(false)
    expect(mentions([root("وقت")], root("وقت"))).toBe(true)
    expect(mentions([root("ارسال")], root("ship"))).toBe(true)
  })

  it("reads coming to take something oneself as collecting, and coming alone as nothing more", () => {
    expect(rewritePhrases(normalizeText("خودم بیام سفارشمو بگیرم"))).toContain("collect")
    expect(rewritePhrases(normalizeText("فردا بیام مغازه"))).not.toContain("collect")
  })
})
