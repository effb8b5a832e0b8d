import { describe, expect, it } from "vitest"
import { isFollowUp, ownPart, resolveAfter, resolveFollowUp } from "../../src/Chat/FollowUp"
import { compose } from "../../src/Chat/OfflineModel"
import { answerText } from "./support/Compose"

const user = (content: string) => ({ role: "user" as const, content, tokens: 10 })
const bot = (content: string) => ({ role: "assistant" as const, content, tokens: 10 })

describe("follow-up questions", () => {
  it("are told by an opening that continues, a pronoun, or too few words of their own", () => {
    const previous = "How long does delivery inside the city take?"
    for (
      const question of ["And to another province?", "what about refunds?", "و برای شهرهای دیگر؟", "How much is it?"]
    ) {
      expect(isFollowUp(question, previous), question).toBe(true)
    }
    expect(isFollowUp("Which payment cards do you accept at checkout?", previous)).toBe(false)
  })

  it("are told by a colloquial Persian opening or a closing that asks again ('X چی؟', 'too?')", () => {
    const previous = "ارسال به شهرهای دیگه چند روز طول میکشه؟"
    for (
      const question of [
        "واسه کالاهای سنگین و بزرگ باربری چند روزه؟",
        "در اون صورت هزینه بسته‌بندی و پیک با کیه؟",
        "کالاهای حجیم مثل یخچال و لباسشویی چی؟",
        "Can I pay for the large fridges by card too?",
        "In that case, who pays for the courier and packaging?"
      ]
    ) {
      expect(isFollowUp(question, previous), question).toBe(true)
    }
    expect(isFollowUp("کارت‌های بانکی عضو شتاب رو برای پرداخت قبول میکنین؟", previous)).toBe(false)
    expect(isFollowUp("اگه کالای سنگین خراب برسه هزینه برگشت با کیه؟", previous)).toBe(false)
    expect(isFollowUp("Which payment cards do you accept for large fridges at checkout?", previous)).toBe(false)
  })

  it("are searched together with the user's previous question; a new question alone", () => {
    const history = [user("How long does delivery inside the city take?"), bot("One day.")]
    expect(resolveFollowUp("And to another province?", history)).toEqual({
      query: "How long does delivery inside the city take?\nAnd to another province?",
      previousQuestion: "How long does delivery inside the city take?"
    })
    expect(resolveFollowUp("Which payment cards do you accept at checkout?", history).previousQuestion).toBeUndefined()
    expect(resolveFollowUp("And to another province?", []).previousQuestion).toBeUndefined()
  })

  it("are told by a word that presupposes something said before, or a colloquial object pronoun", () => {
    const previous = "What happens if nobody answers the door when the courier comes?"
    for (const question of ["What do you charge to try another day?", "Will the courier ring again later?"]) {
      expect(isFollowUp(question, previous), question).toBe(true)
    }
    const persian = "هزینه بازدید کارشناس چقدره؟"
    for (const question of ["اگه نصب کنین بازم باید جدا حساب کنم؟", "اینو با کارت بانکی حساب کنم مشکلی نداره؟"]) {
      expect(isFollowUp(question, persian), question).toBe(true)
    }
    expect(isFollowUp("Which payment cards do you accept at checkout?", previous)).toBe(false)
    expect(isFollowUp("کارت‌های بانکی عضو شتاب رو برای پرداخت قبول میکنین؟", persian)).toBe(false)
  })

  it("are told by a closing 'هم؟' (too?) however many words they name, which is no word of their own", () => {
    const previous = "کفش مردونه رو تا چند روز میشه پس داد؟"
    const question = "کیف چرمی مشکی زنونه سایز بزرگ هم؟"
    expect(isFollowUp(question, previous)).toBe(true)
    expect(ownPart(question)).toBe("کیف چرمی مشکی زنونه سایز بزرگ")
    expect(isFollowUp("کیف چرمی و کفش ورزشی هم با هم ارسال میشن؟", "ساعت کاری فروشگاه چنده؟")).toBe(false)
  })

  it("are told by a closing 'همینطور؟' (likewise?), which is no word of their own", () => {
    const previous = "کتری چند سال گارانتی داره؟"
    expect(isFollowUp("سشوار سفری تاشو کوچک همینطور؟", previous)).toBe(true)
    expect(ownPart("سشوار سفری تاشو کوچک همینطور؟")).toBe("سشوار سفری تاشو کوچک")
    const garanti = "گارانتی\n\nکتری دو سال گارانتی دارد. آسیاب سه سال گارانتی دارد."
    expect(answer("آسیابم همینطور؟", previous, garanti, "fa")).toContain("آسیاب سه سال")
  })

  it("search colloquial Persian words also without their endings, in one query for chat and its evaluation", () => {
    const history = [user("کفشامو کی میفرستین؟"), bot("فردا.")]
    const resolved = resolveFollowUp("کیفمم همینطوره؟", history)
    expect(resolved.previousQuestion).toBe("کفشامو کی میفرستین؟")
    expect(resolved.query.split("\n")[0]).toBe("کفشامو کی میفرستین؟")
    expect(resolved.query).toContain("کفشا")
    expect(resolved.query).toContain("کیفم")
    // The evaluation asks with the previous question alone: the same query as the conversation's.
    expect(resolveAfter("کیفمم همینطوره؟", "کفشامو کی میفرستین؟")).toEqual(resolved)
    expect(resolveAfter("Which cards do you take?", undefined).query).toBe("Which cards do you take?")
  })

  const answerOver = (
    question: string,
    previousQuestion: string,
    passages: ReadonlyArray<{ readonly path: string; readonly text: string }>,
    language: "en" | "fa" = "en"
  ) =>
    compose({
      messages: [],
      tools: [],
      maxOutputTokens: 1024,
      reasoning: "none",
      grounding: {
        question,
        previousQuestion,
        language,
        passages: passages.map((passage, index) => ({ ...passage, n: index + 1 })),
        assistantName: "Shop",
        imagesAttached: 0
      }
    }, []).text
  const answer = (question: string, previousQuestion: string, text: string, language: "en" | "fa" = "en") =>
    answerOver(question, previousQuestion, [{ path: "delivery.md", text }], language)

  it("are answered with the previous question's kind of value and subject, for their own detail", () => {
    const note = "Delivery\n\nWe post every parcel with a tracking code. Delivery inside the capital takes one day; " +
      "other provinces take two to six days."
    const text = answer("And to other provinces?", "How fast is delivery inside the capital?", note)
    expect(text).toContain("two to six days")
    const persian = "ارسال\n\nارسال درون پایتخت یک روز طول می‌کشد. ارسال به استان‌های دیگر دو تا شش روز طول می‌کشد."
    expect(answer("و به استانهای دیگه؟", "ارسال درون پایتخت چند روز طول میکشه؟", persian, "fa")).toContain(
      "دو تا شش روز"
    )
  })

  it("switch subject when they name a new one", () => {
    const note = "Policies\n\nDelivery takes two days. Refunds reach your card within 9 days."
    expect(answer("what about refunds?", "How many days does delivery take?", note)).toContain("9 days")
  })

  it("ask of their own what follows their linking opening and precedes their asking-again ending", () => {
    expect(ownPart("پس آنلاین چی؟")).toBe("آنلاین")
    expect(ownPart("And for gift cards too?")).toBe("for gift cards")
    expect(ownPart("What if it rains?")).toBe("What if it rains?")
    const sale = "فروش\n\nفروش اقساطی فقط در شعبه مرکزی انجام می‌شود. مشتریان شهرهای دیگر می‌توانند آنلاین و نقدی خرید کنند."
    expect(answer("پس آنلاین چی؟", "از شهر دیگه میشه اقساطی خرید؟", sale, "fa")).toContain("آنلاین و نقدی")
  })

  it("are answered from the passage that answered the question before them", () => {
    const passages = [
      { path: "bakery.md", text: "Bakery › Orders\n\nCancel an order 5 days before and we refund it in full." },
      { path: "events.md", text: "Events › Tickets\n\nTickets are refunded up to 5 days before, minus a £3 fee." }
    ]
    const text = answerOver("And if I cancel 6 days before?", "I can't come to the event, can I get my money back?", passages)
    expect(text.split("\n")[1]).toContain("minus a £3 fee")
  })

  it("are declined when they are only a new thing that no passage names", () => {
    const cakes = "Cakes\n\nA chocolate cake costs £20 per kilo."
    expect(answer("And macarons?", "How much is a chocolate cake?", cakes)).toMatch(/^I don't know/)
    const persian = "کیک\n\nقیمت هر کیلو کیک شکلاتی ۵۰۰ هزار تومان است."
    expect(answer("ماکارون چی؟", "کیک شکلاتی کیلویی چنده؟", persian, "fa")).toMatch(/^نمی‌دانم/)
    expect(answer("And a vanilla one?", "How much is a chocolate cake?", "Cakes\n\nA vanilla cake costs £18."))
      .toContain("£18")
  })

  it("read the colloquial 'بازم' (still, again) as no word of the subject, not as 'باز' (open)", () => {
    const passages = [
      {
        path: "install.md",
        text: "مشاوره\n\nجلسه مشاوره دکوراسیون ۸۰ هزار تومان است. اگر پرده سفارش دهید، این مبلغ از فاکتور پرده کسر میشود."
      },
      { path: "install.md", text: "پرده\n\nباز کردن بسته پرده پیش از تحویل به نصاب، بازگشت آن را ناممکن میکند." }
    ]
    const text = answerOver("پرده هم بخرم بازم پول اینو میدم؟", "مشاوره دکوراسیون پولیه؟", passages, "fa")
    expect(text).toContain("از فاکتور پرده کسر میشود")
    expect(text).not.toContain("بسته پرده")
  })

  it("are about what the question before them named when they lean on a pronoun", () => {
    const passages = [
      { path: "gym.md", text: "Gym › Age\n\nMembers may use the gym floor from the age of 16 years." },
      {
        path: "gym.md",
        text: "Gym › Coaching\n\nTen coaching sessions cost £300. Coaching sessions are valid for ninety days."
      }
    ]
    const text = answerOver("How long can I use them?", "What do ten coaching sessions cost?", passages)
    expect(text).toContain("ninety days")
    expect(text).not.toContain("16 years")
  })

  it("ask of a place of their own instead of the previous one's, a country as a destination abroad", () => {
    const passages = [
      {
        path: "tours.md",
        text: "پیش‌پرداخت\n\nدر تورهای داخلی ۲۰ درصد و در تورهای خارجی ۴۰ درصد هزینه تور پیش‌پرداخت است."
      },
      { path: "tours.md", text: "مدارک\n\nبرای تورهای خارجی گذرنامه با شش ماه اعتبار لازم است." }
    ]
    const text = answerOver("برای گرجستان چی؟", "برای تور شیراز چقدر پیش‌پرداخت باید بدم؟", passages, "fa")
    expect(text).toContain("تورهای خارجی ۴۰ درصد")
  })

  it("do not miss the previous question's place once they name their own", () => {
    const passages = [
      {
        path: "tours.md",
        text: "پیش‌پرداخت\n\nبرای رزرو، در تورهای داخلی ۲۰ درصد و در تورهای خارجی ۴۰ درصد هزینه تور پیش‌پرداخت است."
      },
      { path: "tours.md", text: "مدارک\n\nبرای تورهای خارجی گذرنامه با شش ماه اعتبار لازم است." }
    ]
    const text = answerOver("برای گرجستان چی؟", "برای تور قشم ثبت نام کنم اول چقدر باید بدم؟", passages, "fa")
    expect(text).toContain("تورهای خارجی ۴۰ درصد")
  })
})

describe("a follow-up naming another place asks the same of it", () => {
  const delivery = [{
    path: "delivery.md",
    text: "Delivery\n\nDelivery inside Bristol takes one working day. Other towns take two to four working days."
  }]
  const previousQuestion = "How long does delivery to Bristol take?"

  it("reads a capitalised name as the place when the question before it named one", () => {
    for (const question of ["What about Exeter?", "And Exeter?", "Is it the same for Exeter?"]) {
      expect(answerText(question, delivery, { previousQuestion }), question).toContain("two to four working days")
    }
    // Without a place before it, a capitalised name is a thing the passages must name.
    expect(answerText("What about Venmo?", delivery, { previousQuestion: "How do I pay?" })).toMatch(/^I don't know/)
  })

  it("reads the colloquial 'واسه' (for) and 'همینقدر' (as long) as no words of their own", () => {
    const ersal = [{
      path: "ersal.md",
      text: "ارسال\n\nارسال به تبریز یک روز کاری طول می‌کشد. ارسال به سایر شهرها دو تا چهار روز کاری طول می‌کشد."
    }]
    const before = "ارسال به تبریز چند روز طول میکشه؟"
    for (const question of ["واسه اراک چی؟", "به اراک هم همینقدر طول میکشه؟"]) {
      expect(answerText(question, ersal, { language: "fa", previousQuestion: before }), question).toContain(
        "دو تا چهار روز"
      )
    }
  })
})

describe("a follow-up stating a case asks what holds in it", () => {
  const lessons = [{
    path: "lessons.md",
    text: "Lessons\n\nA lesson cancelled a day ahead is moved for free. A lesson cancelled on the day is charged in full."
  }]
  const jalaseh = [{
    path: "kelas.md",
    text: "کلاس‌ها\n\nاگر جلسه را یک روز قبل لغو کنید، جلسه رایگان جابه‌جا می‌شود. لغو در همان روز، هزینه کامل جلسه را دارد."
  }]

  it("answers 'and if …' with the rule's cases, though its own words name nothing the passages hold", () => {
    expect(answerText("And if I cancel later?", lessons, { previousQuestion: "Can I cancel a lesson for free?" }))
      .toContain("charged in full")
  })

  it("answers the colloquial Persian 'اگه … چی؟' the same way", () => {
    expect(
      answerText("اگه دیرتر لغو کنم چی؟", jalaseh, { language: "fa", previousQuestion: "میشه جلسه رو رایگان لغو کرد؟" })
    ).toContain("هزینه کامل")
  })

  it("is answered by what holds in the case when no sentence about it states the previous kind of value", () => {
    const laptops = [{
      path: "repairs.md",
      text: "Repairs\n\nA screen is replaced within three working days. Refurbished laptops are repaired only by their maker."
    }]
    const previousQuestion = "How many days does a screen repair take?"
    expect(answerText("And if it is a refurbished laptop?", laptops, { previousQuestion }))
      .toContain("repaired only by their maker")
    const persian = [{
      path: "tamir.md",
      text: "تعمیر\n\nتعویض صفحه نمایش سه روز کاری طول می‌کشد. لپ‌تاپ‌های استوک فقط توسط سازنده تعمیر می‌شوند."
    }]
    expect(
      answerText("اگه لپ‌تاپم استوک باشه چی؟", persian, {
        language: "fa",
        previousQuestion: "تعویض صفحه نمایش چند روز طول میکشه؟"
      })
    ).toContain("فقط توسط سازنده")
  })

  it("still declines a follow-up naming a new thing no passage holds", () => {
    expect(answerText("And gift cards?", lessons, { previousQuestion: "Can I cancel a lesson for free?" }))
      .toMatch(/^I don't know/)
  })
})
