import { describe, expect, it } from "vitest"
import { answerText, composeAnswer } from "./support/Compose"

const answer = composeAnswer
const ask = answerText
const declinesEn = /^I don't know/
const declinesFa = /^نمی‌دانم/

describe("a question about a number is answered by the number in any writing", () => {
  const note = (sentence: string) => [{ path: "care.md", text: `Care\n\nMachines come with a loan unit. ${sentence}` }]

  it("reads digits of every script and number words as the count asked for", () => {
    for (const written of ["9 days", "nine days", "٩ days"]) {
      expect(ask("How many days can I keep the loan unit?", note(`You can keep the loan unit for ${written}.`)))
        .toContain(written)
    }
  })

  it("reads a range of number words as the duration asked for", () => {
    expect(ask("How long does a repair take?", note("A repair takes two to four weeks.")))
      .toContain("two to four weeks")
  })

  it("reads Persian number words, compounds and digits of both scripts", () => {
    for (const written of ["نه روز", "۹ روز", "٩ روز", "بیست و یک روز"]) {
      const passages = [{ path: "care.md", text: `نگهداری\n\nدستگاه امانی را تا ${written} می‌توانید نگه دارید.` }]
      expect(ask("دستگاه امانی را چند روز میتونم نگه دارم؟", passages, { language: "fa" })).toContain(written)
    }
  })

  it("reads 'a' or 'an' before a time unit as one of it, for the duration asked", () => {
    expect(ask("How long does a repair take?", note("A repair takes about a fortnight."))).toContain("a fortnight")
    expect(ask("How long does a repair take?", note("A repair needs an approved quote."))).toMatch(declinesEn)
  })

  it("does not answer a count with a sentence holding no number of the thing counted", () => {
    expect(ask("How many days can I keep the loan unit?", note("The loan unit is free of charge.")))
      .toMatch(declinesEn)
  })
})

describe("a Persian question matches the passage's verb in another form", () => {
  it("reads a compound verb with either preverb, any person and colloquial spelling, and the number as a word", () => {
    const passages = [{
      path: "returns.md",
      text: "بازگشت\n\nخریدار می‌تواند تا ده روز پس از دریافت، کتاب را بازگرداند."
    }]
    for (const question of ["تا چند روز میتونم کتاب رو برگردونم؟", "تا چند روز می توانم کتاب را برگردانم؟"]) {
      expect(ask(question, passages, { language: "fa" }), question).toContain("ده روز")
    }
  })
})

describe("an answer is about the question's subject, not only its kind of value", () => {
  const service = [{
    path: "service.md",
    text: "Service\n\nPainting a bicycle frame takes 6 working days. Wheels are trued while you wait."
  }]

  it("declines when the only number of days belongs to another subject", () => {
    expect(ask("How many days does engraving take?", service)).toMatch(declinesEn)
    const persian = [{ path: "service.md", text: "خدمات\n\nرنگ‌آمیزی بدنه ۶ روز کاری طول می‌کشد." }]
    expect(ask("حکاکی چند روز طول میکشه؟", persian, { language: "fa" })).toMatch(declinesFa)
    expect(ask("رنگ آمیزی چند روز طول میکشه؟", persian, { language: "fa" })).toContain("۶ روز")
  })

  it("declines when the thing asked for is named in no passage", () => {
    expect(ask("Which colour does the frame come in?", service)).toMatch(declinesEn)
  })
})

describe("a place is an instance of every place", () => {
  const coverage = [{ path: "delivery.md", text: "Delivery\n\nOur vans deliver to all provinces of Iran." }]

  it("answers for a named city from a sentence about all of them", () => {
    expect(ask("Do you deliver to Yazd?", coverage)).toContain("all provinces")
    const persian = [{ path: "delivery.md", text: "ارسال\n\nبه همه استان‌های کشور ارسال داریم." }]
    expect(ask("به یزد ارسال دارید؟", persian, { language: "fa" })).toContain("همه استان")
  })

  it("does not answer for a named city from a sentence about another one", () => {
    const showroom = [{ path: "store.md", text: "Store\n\nOur only showroom is in Karaj, next to the metro." }]
    expect(ask("Is there a showroom in Yazd?", showroom)).toMatch(declinesEn)
  })
})

describe("a quote carries its referent", () => {
  it("quotes the sentence before one that points back to it", () => {
    const fees = [{
      path: "fees.md",
      text: "Fees\n\nOrders above 40 euros travel free. Below that, the courier charges 5 euros per parcel."
    }]
    expect(ask("What does the courier charge per parcel?", fees)).toContain(
      "Orders above 40 euros travel free. Below that, the courier charges 5 euros"
    )
    const persian = [{
      path: "fees.md",
      text: "هزینه\n\nسفارش‌های بالای دو میلیون تومان رایگان ارسال می‌شوند. این سفارش‌ها بیمه هم دارند."
    }]
    expect(ask("سفارش‌ها بیمه دارند؟", persian, { language: "fa" })).toContain("رایگان ارسال می‌شوند. این سفارش‌ها بیمه")
  })
})

describe("declining", () => {
  it("marks an I-don't-know answer as declined, so it cites no sources", () => {
    const declined = answer("Do you sell sailing boats?", [{ path: "a.md", text: "Kettles\n\nOur kettles boil fast." }])
    expect(declined.text).toMatch(declinesEn)
    expect(declined.declined).toBe(true)
    expect(answer("Do your kettles boil fast?", [{ path: "a.md", text: "Kettles\n\nOur kettles boil fast." }]).declined)
      .toBe(false)
  })
})

describe("across languages", () => {
  it("quotes a passage written only in Persian for an English question, and says it is in Persian", () => {
    const persian = [{ path: "returns-fa.md", text: "مرجوعی\n\nمرجوع کردن کالا تا ۱۰ روز پس از تحویل ممکن است." }]
    const text = ask("How many days do I have to return an item?", persian)
    expect(text).toContain("۱۰ روز")
    expect(text).toContain("returns-fa.md, in Persian")
  })
})

describe("a question asks with other words than the passage states", () => {
  const terms = [{
    path: "terms.md",
    text:
      "Terms › Returns\n\nYou may send back any unused item within 14 days of receiving it. Opened software is not taken back."
  }]

  it("reads a phrase as its word: 'send back' and 'پس دادن' are returning, not shipping", () => {
    expect(ask("Can I return something I bought?", terms)).toContain("within 14 days")
    const persian = [{ path: "terms.md", text: "مرجوعی\n\nخریدار می‌تواند کالای سالم را تا ۱۴ روز بازگرداند." }]
    expect(ask("تا چند روز میتونم جنس رو پس بدم؟", persian, { language: "fa" })).toContain("۱۴ روز")
  })

  it("reads a question's measure word as the statement's verb or label", () => {
    const specs = [{
      path: "manual.md",
      text: "Mixer › Specifications\n\nThe bowl holds up to 4 litres. Weight: 5.1 kg."
    }]
    expect(ask("What is the capacity of the bowl?", specs)).toContain("4 litres")
    expect(ask("How heavy is the mixer?", specs)).toContain("5.1 kg")
  })

  it("answers a measure only with a number and a unit, not a version or a date", () => {
    const notes = [{ path: "notes.md", text: "Uploads\n\nUploads of release 2.4.1 go to the archive after review." }]
    expect(ask("What is the largest size of an upload?", notes)).toMatch(declinesEn)
  })

  it("answers how often with a frequency in either language", () => {
    const care = [{ path: "care.md", text: "Care\n\nDescale the kettle once a month. Wipe the base with a dry cloth." }]
    expect(ask("How often should I descale the kettle?", care)).toContain("once a month")
    const persian = [{ path: "care.md", text: "نگهداری\n\nفیلتر را ماهی یک بار با آب سرد بشویید." }]
    expect(ask("فیلتر رو هر چند وقت باید بشورم؟", persian, { language: "fa" })).toContain("ماهی یک بار")
  })

  it("matches a Persian compound verb by its noun, whatever light verb each side uses", () => {
    const card = [{ path: "card.md", text: "گارانتی\n\nآسیب ناشی از ضربه شامل گارانتی نمی‌شود." }]
    expect(ask("اگه دستگاه ضربه بخوره گارانتی داره؟", card, { language: "fa" })).toContain("ضربه")
  })

  it("does not read a Persian derived word as its base ('فروش' sale is not 'فروشگاه' shop)", () => {
    const sale = [{ path: "sale.md", text: "شرایط فروش\n\nفروش اقساطی نداریم." }]
    expect(ask("فروشگاه حضوری دارید؟", sale, { language: "fa" })).toMatch(declinesFa)
  })
})

describe("a sentence about every place answers only the subject it is about", () => {
  it("does not answer a question about a branch in a city with a sentence about delivery to every city", () => {
    const delivery = [{ path: "delivery.md", text: "Delivery\n\nWe deliver to every city in the country." }]
    expect(ask("Do you deliver to Yazd?", delivery)).toContain("every city")
    expect(ask("Do you have a branch in Yazd?", delivery)).toMatch(declinesEn)
  })
})

describe("tables and manuals' dot leaders", () => {
  it("quotes a table row with its column headers", () => {
    const rates = [{
      path: "rates.md",
      text:
        "Rates\n\n| Service | Time | Price |\n| --- | --- | --- |\n| Economy | six days | £2 |\n| Express | one day | £9 |"
    }]
    expect(ask("What does express cost?", rates)).toContain("Express — Time: one day; Price: £9")
  })

  it("reads a dot-leader line as a label and its text", () => {
    const codes = [{
      path: "manual.txt",
      text: "Error codes\n\nF7 on the screen ...... the water tank is empty: refill it."
    }]
    expect(ask("What does F7 mean?", codes)).toContain("the water tank is empty")
  })
})

describe("colloquial Persian endings and places", () => {
  it("reads a noun with a colloquial possessive or object ending as the noun the passage holds", () => {
    const store = [{ path: "faq.md", text: "سوالات\n\nنشانی فروشگاه: اصفهان، خیابان نظر، پلاک ۷." }]
    expect(ask("آدرس مغازتون کجاست؟", store, { language: "fa" })).toContain("خیابان نظر")
  })

  it("reads a word after 'به' that no passage names as a place, answered by a sentence about every place", () => {
    const delivery = [{ path: "delivery.md", text: "ارسال\n\nبه تمام نقاط ایران ارسال داریم." }]
    expect(ask("به خلخال هم میفرستین؟", delivery, { language: "fa" })).toContain("تمام نقاط")
    expect(ask("به خارج از کشور هم میفرستین؟", delivery, { language: "fa" })).toMatch(declinesFa)
  })

  it("reads a word after 'به' as a word like any other where no passage speaks of places", () => {
    const classes = [{
      path: "classes.md",
      text: "کلاس‌ها\n\nاگر کلاس به حد نصاب نرسد و تشکیل نشود، شهریه ظرف ۵ روز کاری برگردانده می‌شود."
    }]
    expect(ask("اگه کلاس به تعداد نرسه شهریه کی برمیگرده؟", classes, { language: "fa" })).toContain("۵ روز")
  })
})

describe("colloquial Persian: a city with a personal ending, coming to collect, asking for time", () => {
  const service = [{
    path: "service.md",
    text:
      "خدمات\n\nدر تبریز و رشت کارشناس ما دستگاه را از منزل شما می‌برد. در سایر شهرها دستگاه را به نزدیکترین نمایندگی ببرید."
  }]

  it("reads a known city with a personal ending as the city, answered by a sentence about the other cities", () => {
    const answer = ask("من یزدم، دستگاهو از خونه میبرین؟", service, { language: "fa" })
    expect(answer).toContain("سایر شهرها")
    expect(answer).not.toContain("تبریز و رشت")
  })

  it("answers for a city the passage names with its own sentence", () => {
    expect(ask("من رشتم، دستگاهو از خونه میبرین؟", service, { language: "fa" })).toContain("تبریز و رشت")
  })

  it("reads coming to take an order oneself as collecting it in person", () => {
    const pickup = [{
      path: "pickup.md",
      text: "تحویل\n\nارسال با پست سه روز کاری طول می‌کشد. سفارش‌های تحویل حضوری دو ساعت بعد در شعبه آماده است."
    }]
    expect(ask("اگه خودم بیام سفارشمو بگیرم کی آمادست؟", pickup, { language: "fa" })).toContain("دو ساعت")
  })

  it("answers a question on the time to return with the return period first, not a delivery time", () => {
    const note = [{
      path: "returns.md",
      text: "ارسال و مرجوعی\n\nزمان تحویل: ۳ روز کاری. کالای سالم را تا ده روز پس از دریافت می‌توانید مرجوع کنید."
    }]
    const [, first] = ask("چند روز وقت دارم کالا رو پس بدم؟", note, { language: "fa" }).split("\n")
    expect(first).toContain("ده روز")
  })
})

describe("a semicolon joins two clauses of one statement", () => {
  it("quotes both clauses of a sentence joined by a Persian or Latin semicolon", () => {
    const fa = [{
      path: "returns.md",
      text: "مرجوعی\n\nاگر کالا معیوب باشد، هزینه پست برگشت با فروشگاه است؛ در غیر این صورت هزینه با خریدار است."
    }]
    expect(ask("هزینه پست برگشت با کیه؟", fa, { language: "fa" })).toContain("در غیر این صورت هزینه با خریدار است")
    const en = [{
      path: "returns.md",
      text: "Returns\n\nIf the item is faulty, we pay the return postage; otherwise the buyer pays it."
    }]
    expect(ask("Who pays the return postage?", en)).toContain("otherwise the buyer pays it")
  })
})

describe("a kind of goods no passage names", () => {
  const card = [{
    path: "card.md",
    text: "کارت گارانتی\n\nمحصول: کتری برقی مدل K-2\nمدت گارانتی: ۱۲ ماه از تاریخ خرید"
  }]

  it("declines a question about the guarantee of goods the passages do not name", () => {
    expect(ask("گارانتی کولر چند ماهه؟", card, { language: "fa" })).toMatch(declinesFa)
    expect(ask("How many months is the fridge's guarantee?", card)).toMatch(declinesEn)
  })

  it("answers the same question about the goods the passage names, with a colloquial unit", () => {
    expect(ask("گارانتی کتری چند ماهه؟", card, { language: "fa" })).toContain("۱۲ ماه")
  })
})

describe("a measure is answered only by a unit of its kind", () => {
  it("does not answer a weight or a duration with litres", () => {
    const box = [{ path: "box.md", text: "In the box\n\nThe kettle, a 1.7 litre jug and a base." }]
    expect(ask("How much does the kettle weigh?", box)).toMatch(declinesEn)
    expect(ask("How long is the kettle's guarantee?", box)).toMatch(declinesEn)
    expect(ask("How big is the jug?", box)).toContain("1.7 litre")
  })
})

describe("a sentence naming the places a service reaches answers for a place no passage names", () => {
  const delivery = [{
    path: "delivery.md",
    text: "Delivery\n\nWe deliver sofas to Norway and Sweden for a flat fee of £80.\n\n" +
      "Our showroom in Oslo opens at ten every weekday."
  }]

  it("quotes the sentence naming where it delivers for a town it does not name", () => {
    expect(ask("Can you deliver a sofa to Bergen?", delivery)).toContain("to Norway and Sweden")
  })

  it("does not take where the shop's premises are for where it delivers", () => {
    const shop = [{ path: "shop.md", text: "Shop\n\nOur showroom in Oslo opens at ten every weekday." }]
    expect(ask("Can you deliver a sofa to Bergen?", shop)).toMatch(declinesEn)
  })
})
