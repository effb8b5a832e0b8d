import { describe, expect, it } from "vitest"
import { analyzeQuestion, bareForm, mentions, rootsOf } from "../../src/Chat/QuestionAnalysis"
import { sameWord } from "../../src/Chat/SameWord"
import { isProductKind, rewritePhrases, synonymsOf } from "../../src/Search/Lexicon"
import { stem } from "../../src/Search/Stemmer"
import { normalizeText } from "../../src/Search/TextNormalization"
import { answerText } from "./support/Compose"

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

  it("reads 'what score' and 'what grade' as asking for the value, not for a thing the passages must name", () => {
    expect(analyzeQuestion("What score do I need in the theory test to pass?")).toMatchObject({ focus: undefined })
    const passages = [
      { path: "driving.md", text: "Theory test\n\nYou pass the theory test with at least 43 correct answers of 50." },
      { path: "driving.md", text: "Lessons\n\nA lesson lasts 90 minutes. Lessons cancelled a day ahead are free." }
    ]
    expect(answerText("What score do I need in the theory test to pass?", passages)).toContain("at least 43")
    expect(answerText("What grade is enough for the theory test?", passages)).toContain("at least 43")
  })
})

describe("synonyms", () => {
  it("read spending an amount as an order of that value", () => {
    expect(mentions(rootsOf("Orders over £60 are delivered free."), root("spend"))).toBe(true)
    const passages = [
      { path: "plants.md", text: "Delivery\n\nOrders over £60 are delivered without charge. Smaller orders cost £4.50." },
      { path: "plants.md", text: "Care\n\nWater ferns twice a week. Cacti need water once a month in winter." },
      { path: "plants.md", text: "Pots\n\nClay pots are sold in three sizes. Glazed pots cost £2 more." }
    ]
    for (const question of ["If I spend £80, do I get free delivery?", "Spending £80 on ferns, is delivery charged?"]) {
      expect(answerText(question, passages), question).toContain("Orders over £60")
    }
  })

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

describe("a two-letter Persian noun under a colloquial ending", () => {
  it("reads 'جامو' (my place) as the 'جای' a passage holds", () => {
    const seats = [{ path: "seats.md", text: "صندلی‌ها\n\nهر مسافر می‌تواند تا یک روز قبل از سفر، جای خود را به دیگری بدهد." }]
    expect(answerText("میتونم جامو به برادرم بدم؟", seats, { language: "fa" })).toContain("جای خود")
  })

  it("takes the short base only when a passage holds it as it is", () => {
    expect(bareForm("فنش", rootsOf("تعویض فن کولر"))).toBe("فن")
    expect(bareForm("سرش", rootsOf("سرویس رایگان است"))).toBe("سرش")
  })
})

describe("an Arabic plural on the pattern of 'اقساط'", () => {
  it("is the three-letter noun it is the plural of", () => {
    expect(sameWord(root("اجناس"), root("جنس"))).toBe(true)
    expect(sameWord(root("جنس"), root("اجناس"))).toBe(true)
  })

  it("is no other word of five letters", () => {
    expect(sameWord(root("انبار"), root("نبر"))).toBe(false)
    expect(sameWord(root("اجناس"), root("جنگ"))).toBe(false)
  })

  it("answers a colloquial singular from a passage holding the plural", () => {
    const stock = [{ path: "stock.md", text: "انبار\n\nاجناس حراجی تا ۱۰ روز در انبار نگه داشته می‌شوند." }]
    expect(answerText("جنسامو تا کی نگه میدارین؟", stock, { language: "fa" })).toContain("اجناس حراجی")
  })
})

describe("a Persian adjective in 'انه'", () => {
  it("is about its noun: 'ماهانه' (monthly) is of months", () => {
    expect(sameWord(root("سالانه"), root("سال"))).toBe(true)
    expect(sameWord(root("روز"), root("روزانه"))).toBe(true)
    expect(sameWord(root("روزانه"), root("رو"))).toBe(false)
  })
})

describe("a unit and its short form", () => {
  it("reads 'کیلو' as 'کیلوگرم' and 'kilo' as 'kilogram'", () => {
    expect(mentions([root("کیلوگرم")], root("کیلو"))).toBe(true)
    expect(mentions([root("kilograms")], root("kilo"))).toBe(true)
    expect(mentions([root("سانتیمتر")], root("سانت"))).toBe(true)
  })
})

describe("a city of the country", () => {
  it("is named by a word for inside the country, as a foreign city is by one for abroad", () => {
    expect(mentions([root("داخلی")], root("یزد"))).toBe(true)
    expect(mentions([root("domestic")], root("shiraz"))).toBe(true)
    expect(mentions([root("داخلی")], root("استانبول"))).toBe(false)
  })

  it("is answered by the rule for trips inside the country", () => {
    const trips = [{
      path: "trips.md",
      text: "پیش‌پرداخت\n\nبرای سفرهای داخلی ۴۰ درصد و برای سفرهای خارجی ۶۰ درصد مبلغ پیش از سفر گرفته می‌شود."
    }]
    expect(answerText("سفر یزد چقدر پیش‌پرداخت داره؟", trips, { language: "fa" })).toContain("سفرهای داخلی ۴۰ درصد")
  })
})

describe("other places, in Persian word order", () => {
  it("reads 'شهرهای دیگر' (the other cities) as a sentence about every place", () => {
    const fitting = [{
      path: "fitting.md",
      text: "نصب\n\nنصب بخاری در یزد رایگان است. در شهرهای دیگر، نصب با نصاب محلی و به هزینه مشتری است."
    }]
    expect(answerText("من زنجانم، بخاری رو کی برام نصب میکنه؟", fitting, { language: "fa" })).toContain("شهرهای دیگر")
  })
})

describe("a sentence counting in the unit asked for", () => {
  it("answers 'چند ماهه' before one that only names the month", () => {
    const plan = [{
      path: "plan.md",
      text: "پرداخت اقساطی\n\nاقساط اول هر ماه سررسید می‌شوند. مبلغ باقی‌مانده در ۴ یا ۸ قسط ماهانه پرداخت می‌شود."
    }]
    const text = answerText("حداکثر چند ماهه قسط میدین؟", plan, { language: "fa" })
    expect(text.indexOf("۸ قسط ماهانه")).toBeGreaterThanOrEqual(0)
    expect(text.indexOf("۸ قسط ماهانه")).toBeLessThan(Math.max(0, text.indexOf("اول هر ماه")))
  })
})

describe("words that frame a question as people type it", () => {
  it("reads the spoken asking words 'چقد' and 'چن' as 'چقدر' and 'چند'", () => {
    expect(analyzeQuestion("تعویض بند ساعت چقد میشه؟").subject).not.toContain(root("چقد"))
    expect(analyzeQuestion("تعمیر کفش چن روز طول میکشه؟")).toMatchObject({ expected: "duration", unit: root("روز") })
  })

  it("reads 'چند حساب میکنین' as asking a price, and 'حساب کنم' alone as no price", () => {
    expect(analyzeQuestion("کوتاهی مو چند حساب میکنین؟").expected).toBe("price")
    expect(analyzeQuestion("میشه رنگ مو رو قسطی حساب کنم؟").roots).not.toContain(root("هزینه"))
  })

  it("does not take the modal verbs of wanting and being able for the subject", () => {
    const roots = analyzeQuestion("اگه بخوام کلاس خصوصی بگیرم بتونم شنبه بیام؟").roots
    expect(roots).not.toContain(root("بخوام"))
    expect(roots).not.toContain(root("بتونم"))
    expect(roots).toContain(root("کلاس"))
  })

  it("does not take 'go' typed with its prefix ('برم', 'میرم') for the subject, and keeps 'نرم' (soft)", () => {
    expect(analyzeQuestion("اگه دیر برم کفشمو بگیرم جریمه داره؟").roots).not.toContain(root("برم"))
    expect(analyzeQuestion("فردا میرم خرید، کفش نرم دارین؟").roots).toEqual(
      expect.arrayContaining([root("نرم"), root("کفش")])
    )
    expect(analyzeQuestion("فردا میرم خرید، کفش نرم دارین؟").roots).not.toContain(root("میرم"))
  })

  it("does not take fillers, apostrophe-less contractions or 'what happens' for the subject", () => {
    const subject = analyzeQuestion("the lawn got pretty overgrown, ok to book a mow? what happens if i cant be in").subject
    for (const word of ["pretty", "ok", "happens", "cant"]) expect(subject).not.toContain(root(word))
    expect(subject).toContain(root("lawn"))
  })

  it("reads an age ('my 7 year old', '9 weeks old') as a number of years or weeks, without 'old'", () => {
    expect(analyzeQuestion("can my 7 year old join the swim class?").roots).not.toContain(root("old"))
    expect(analyzeQuestion("our kitten is 9 weeks old, is that too young?").roots).toContain(root("weeks"))
    expect(analyzeQuestion("do you buy old watches?").roots).toContain(root("old"))
  })

  it("reads a short Persian noun with the 'ی' of 'per' as the noun the passages hold", () => {
    expect(bareForm(root("ساعتی"), [root("ساعت"), root("اجاره")])).toBe(root("ساعت"))
    expect(bareForm(root("ساعتی"), [root("ساعتی")])).toBe(root("ساعتی"))
  })
})

describe("an English noun and its word in '-y'", () => {
  it("reads 'foggy' as 'fog' and 'kitty' as 'kit' after a doubled consonant, not 'tin' as 'tiny'", () => {
    expect(sameWord(root("foggy"), root("fog"))).toBe(true)
    expect(sameWord(root("kit"), root("kitty"))).toBe(true)
    expect(sameWord(root("tin"), root("tiny"))).toBe(false)
    expect(sameWord(root("see"), root("seey"))).toBe(false)
  })

  it("answers a question with the adjective from a passage naming the noun", () => {
    const wash = [
      { path: "wash.md", text: "Car wash › Extras\n\nCars covered in sand pay a £6 pre-rinse charge." },
      { path: "wash.md", text: "Car wash › Hours\n\nWe wash cars every day from 8am." }
    ]
    expect(answerText("my car is really sandy, is that ok?", wash)).toContain("£6 pre-rinse")
  })
})

describe("whom a price or rule is for", () => {
  it("reads 'kids' as children and 'بچه' as 'کودک'", () => {
    expect(mentions([root("children")], root("kids"))).toBe(true)
    expect(mentions([root("کودکان")], root("بچه"))).toBe(true)
    const pool = [
      { path: "pool.md", text: "Swimming › Tickets\n\nChildren under five swim free; adults pay £6." },
      { path: "pool.md", text: "استخر › بلیت\n\nورود کودکان زیر ۵ سال رایگان است." }
    ]
    expect(answerText("is a swim free for kids?", pool.slice(0, 1))).toContain("swim free")
    expect(answerText("بچه ها هم باید بلیت بخرن؟", pool.slice(1), { language: "fa" })).toContain("رایگان")
  })
})

describe("a Persian noun of doing something to a thing", () => {
  it("is about the thing: lifting, keeping, washing, making", () => {
    const pairs = [["خاک", "خاک‌برداری"], ["باغ", "باغداری"], ["پرده", "پرده‌شویی"], ["کلید", "کلیدسازی"]]
    for (const [thing, action] of pairs) expect(sameWord(root(thing), root(action))).toBe(true)
  })

  it("is no other derivation of the word", () => {
    for (const [word, other] of [["کار", "کاربر"], ["دست", "دستبند"], ["فروش", "فروشگاه"]]) {
      expect(sameWord(root(word), root(other))).toBe(false)
    }
  })
})

describe("an English agent in '-ist'", () => {
  it("is about what it works with: 'florist' meets 'floral', 'stylist' meets 'style'", () => {
    expect(sameWord(root("florist"), root("floral"))).toBe(true)
    expect(sameWord(root("styling"), root("stylist"))).toBe(true)
    expect(sameWord(root("assist"), root("assets"))).toBe(false)
    expect(sameWord(root("list"), root("lime"))).toBe(false)
  })
})

describe("who answers for a loss", () => {
  it("reads 'به گردن کیست' as asking who is responsible, and 'liable' as 'responsible'", () => {
    expect(analyzeQuestion("اگه دکمه کت بیفته به گردن کیست؟").roots).toContain(root("مسئولیت"))
    expect(mentions([root("عهده")], root("مسئولیت"))).toBe(true)
    expect(mentions([root("responsible")], root("liable"))).toBe(true)
    const cleaners = [{ path: "dry.md", text: "خشکشویی › آسیب\n\nدکمه‌های تزئینی بر عهده مشتری است." }]
    expect(answerText("اگه دکمه کت بیفته به گردن کیست؟", cleaners, { language: "fa" })).toContain("بر عهده مشتری")
  })
})

describe("a hyphenated shop term is one word", () => {
  it("reads 'second hand' and 'second-hand' as the term, and its parts as no synonyms of its line", () => {
    expect(mentions(rootsOf("used"), rootsOf("second hand")[0] ?? "")).toBe(true)
    expect(rootsOf("second-hand")).toEqual(rootsOf("second hand"))
    expect(synonymsOf(root("after"))).not.toContain(root("support"))
    expect(synonymsOf(root("hand"))).not.toContain(root("used"))
  })
})
