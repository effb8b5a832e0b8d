/**
 * Wordings a question and a document use for the same thing: a table row keyed by its first column's header,
 * a city's districts in the Arabic plural, and everyday paraphrases of the lexicon.
 */
import { describe, expect, it } from "vitest"
import { monthsIn, timesOfDayIn, weekdaysIn } from "../../src/Chat/Weekdays"
import { normalizeText } from "../../src/Search/TextNormalization"
import { mentions, rootsOf } from "../../src/Chat/QuestionAnalysis"
import { answerText } from "./support/Compose"

const declinesEn = /^I don't know/

describe("a table row is keyed by its first column's header", () => {
  const rates = [{
    path: "rates.md",
    text: "Shipping › Charges\n\n| Basket size | Standard | Express |\n|---|---|---|\n| Up to £40 | £4.50 | £8 |\n" +
      "| £40 and more | free | £5 |"
  }]

  it("quotes the row with the header it is keyed by", () => {
    expect(answerText("What is the standard charge for a small basket size?", rates)).toContain(
      "Basket size: Up to £40 — Standard: £4.50; Express: £8."
    )
  })
})

describe("a city's districts in the Arabic plural are districts", () => {
  const courier = [{
    path: "courier.md",
    text: "هزینه پیک\n\n| منطقه | هزینه |\n|---|---|\n| مناطق ۱ تا ۸ | ۸۰ هزار تومان |\n| مناطق ۹ تا ۲۲ | ۱۴۰ هزار تومان |"
  }]

  it("answers a follow-up naming another district from the row whose range holds it", () => {
    const reply = answerText("منطقه دوازده چی؟", courier, {
      language: "fa",
      previousQuestion: "هزینه پیک برای منطقه ۳ چقدره؟"
    })
    expect(reply.split("\n")[1]).toContain("۱۴۰ هزار تومان")
  })
})

describe("everyday paraphrases", () => {
  const club = [
    { path: "club.md", text: "Club › Joining\n\nNew members pay a registration fee of £15." },
    { path: "club.md", text: "Club › Breaks\n\nYou can suspend your membership for up to two months; it costs £3 a month." }
  ]

  it("reads 'sign up' as joining or registering", () => {
    expect(answerText("Do I pay anything to sign up?", club)).toContain("registration fee of £15")
  })

  it("reads 'put on hold' as pausing or suspending", () => {
    expect(answerText("Can I put my membership on hold?", club)).toContain("suspend your membership")
  })

  it("reads a payment that bounces as one that fails", () => {
    const payments = [
      { path: "club.md", text: "Club › Payments\n\nCard payments are taken on the 1st of each month." },
      { path: "club.md", text: "Club › Payments\n\nWhen a card payment fails, we charge a £7 handling fee." }
    ]
    expect(answerText("What happens if my payment bounces?", payments)).toContain("£7 handling fee")
  })

  it("reads relocating as moving", () => {
    const plans = [
      { path: "club.md", text: "Club › Plans\n\nThe yearly plan renews on its own." },
      { path: "club.md", text: "Club › Leaving\n\nYou may end a plan early only if you move more than 20 miles away." }
    ]
    expect(answerText("I'm relocating. Can I get out early?", plans)).toContain("move more than 20 miles")
  })

  it("still declines what no passage speaks of", () => {
    expect(answerText("Do you have a sauna?", club)).toMatch(declinesEn)
  })
})

describe("a day inside a range of weekdays", () => {
  it("covers the days between the range's ends, in either language", () => {
    expect(weekdaysIn("Open Tuesday to Friday.")).toEqual(["tuesday", "wednesday", "thursday", "friday"])
    expect(weekdaysIn("Late opening Friday–Monday.")).toEqual(["friday", "saturday", "sunday", "monday"])
    expect(weekdaysIn("شنبه تا دوشنبه باز هستیم")).toHaveLength(3)
    expect(weekdaysIn("Closed on Monday and Thursday.")).toEqual([])
  })

  it("covers every weekday where the text says every day, in either language", () => {
    expect(weekdaysIn("The car wash is open every day from 7am.")).toContain("sunday")
    expect(weekdaysIn("Lanes are open 7 days a week.")).toContain("wednesday")
    expect(weekdaysIn("استخر همه‌روزه باز است.")).toContain(normalizeText("جمعه"))
    expect(weekdaysIn("Sessions last seven days.")).toEqual([])
  })

  it("answers a question naming a weekday with a sentence about every day", () => {
    const wash = [
      { path: "wash.md", text: "Car wash\n\nThe jet bays take cards every day, bank holidays included." },
      { path: "wash.md", text: "Prices\n\nA full valet costs £45." }
    ]
    expect(answerText("do the jet bays take cards on a saturday?", wash)).toContain("bank holidays included")
  })

  it("answers a question naming a day inside the range", () => {
    const pickup = [
      { path: "pickup.md", text: "Collection\n\nSame-day collection is possible for orders placed before noon, Tuesday to Friday." },
      { path: "pickup.md", text: "Gifts\n\nGift wrap is available for every order." }
    ]
    expect(answerText("I ordered at ten on a Thursday. Will it come the same day?", pickup)).toContain("before noon")
  })
})

describe("a month inside a range of months", () => {
  it("covers the months between the range's ends, round the year's end, in either calendar", () => {
    expect(monthsIn("Boat trips run from June to August.")).toEqual(["june", "july", "august"])
    expect(monthsIn("The rink opens November–February.")).toHaveLength(4)
    expect(monthsIn("از مهر تا آذر کلاس داریم")).toHaveLength(3)
    expect(monthsIn("Closed in May and in October.")).toEqual([])
  })

  it("answers a follow-up naming a month inside the range", () => {
    const trips = [
      { path: "trips.md", text: "Trips\n\nTrips leave every morning; from June to August they also leave at 6pm." },
      { path: "trips.md", text: "Tickets\n\nChildren under five travel free." }
    ]
    expect(answerText("and in july?", trips, { previousQuestion: "When do boat trips leave?" })).toContain(
      "6pm"
    )
  })
})

describe("hours stated are the hours something is open", () => {
  it("reads hours with their times of day between ('۷ صبح تا ۹ شب') as clock hours", () => {
    expect(timesOfDayIn("هر روز از ساعت ۷ صبح تا ۹ شب")).toContain(normalizeText("باز"))
    expect(timesOfDayIn("Pickup 8 in the morning to 6 in the evening, any hour")).toContain("open")
    expect(timesOfDayIn("Two scoops of ice cream for 4 pounds")).toEqual([])
  })

  it("answers whether it is open on a day with the hours that name the day", () => {
    const bakery = [
      { path: "bakery.md", text: "نانوایی › ساعات کاری\n\nهر روز به جز دوشنبه‌ها از ساعت ۷ صبح تا ۹ شب." },
      { path: "bakery.md", text: "نانوایی › سفارش\n\nسفارش کیک از دو روز قبل گرفته میشود." }
    ]
    expect(answerText("نانوایی دوشنبه بازه؟", bakery, { language: "fa" })).toContain("به جز دوشنبه")
  })
})

describe("a moment named by an event answers 'when'", () => {
  it("answers when a thing is handed over with the day or moment of an event", () => {
    const tailor = [
      { path: "tailor.md", text: "خیاطی › تحویل\n\nالگوی کاغذی لباس هنگام پرو به شما داده میشود." },
      { path: "tailor.md", text: "خیاطی › دوخت\n\nدوخت کت و شلوار ۱۰ روز کاری طول میکشد." }
    ]
    expect(answerText("الگوی کاغذیو کی میدین؟", tailor, { language: "fa" })).toContain("هنگام پرو")
    const framing = [{ path: "frames.md", text: "Frames\n\nThe mount sample is handed over on the day of ordering." }]
    expect(answerText("When do I get the mount sample?", framing)).toContain("on the day of ordering")
  })
})

describe("clock hours speak of every time of day", () => {
  it("reads a range of hours as covering the times of day, and no other range", () => {
    expect(timesOfDayIn("On Saturdays we open from 9 to 12.")).toContain("evening")
    expect(timesOfDayIn("Delivery takes 3 to 5 working days.")).toEqual([])
  })

  it("answers how late with the hours of the day", () => {
    const pool = [
      { path: "pool.md", text: "استخر\n\nسانس‌های عمومی: یکشنبه تا سه‌شنبه ۶ صبح تا ۱۰ شب، چهارشنبه ۷ تا ۱۴." },
      { path: "pool.md", text: "بلیت\n\nبلیت یک جلسه ۱۲۰ هزار تومان است و ظرف ۳ روز اعتبار دارد." }
    ]
    expect(answerText("چهارشنبه سانس عمومی تا کی هست؟", pool, { language: "fa" })).toContain("۷ تا ۱۴")
  })

  it("answers a question naming a time of day with the hours, inside them or not", () => {
    const delivery = [
      { path: "d.md", text: "تحویل\n\nجمعه‌ها فقط بازه ۹ تا ۱۳ تحویل داریم." },
      { path: "d.md", text: "بسته‌بندی\n\nگل‌ها در جعبه مقوایی تحویل داده می‌شوند." }
    ]
    expect(answerText("جمعه شب هم میارین؟", delivery, { language: "fa" })).toContain("۹ تا ۱۳")
  })
})

describe("an ordinal the question states is a value, not a word to find", () => {
  it("answers a question about the fourth floor from a rule about floors", () => {
    const stairs = [
      { path: "stairs.md", text: "Carrying\n\nWe carry up to the second floor; each floor above costs £12." },
      { path: "stairs.md", text: "Lifts\n\nPlease book the building's lift for the delivery day." }
    ]
    expect(answerText("Seventh floor, extra charge?", stairs)).toContain("£12")
  })
})

describe("a year's term and loanwords", () => {
  it("reads 'annual' and 'yearly' as a 12-month term", () => {
    const plans = [
      { path: "plans.md", text: "Plans\n\nThe monthly plan can be paused at any time." },
      { path: "plans.md", text: "Plans\n\nThe 12-month plan can be paused once a year." }
    ]
    expect(answerText("Can I pause the annual plan?", plans).split("\n")[0]).toContain("12-month plan")
  })

  it("reads a Persian loanword as the native word a passage holds", () => {
    const repairs = [{ path: "repairs.md", text: "تعمیرات\n\nپیش از تحویل دستگاه، از اطلاعات خود نسخه پشتیبان بگیرید." }]
    expect(answerText("قبل تعمیر بکاپ بگیرم؟", repairs, { language: "fa" })).toContain("نسخه پشتیبان")
  })
})

describe("a bound is a range the stated value may fall in", () => {
  it("answers with the rule whose bound holds the value the question states", () => {
    const parcels = [{
      path: "parcels.md",
      text: "Couriers\n\nOur courier leaves parcels with a neighbour or in a safe place. Parcels over 10 kg need a " +
        "signature. Parcels under 2 kg fit a letterbox."
    }]
    expect(answerText("Will the courier leave my 25 kg parcel with a neighbour?", parcels)).toContain("over 10 kg")
  })

  it("reads Persian bounds and a colloquial scale ('۳ میلیونه')", () => {
    const shipping = [{
      path: "shipping.md",
      text: "ارسال\n\nسفارش‌های کمتر از ۲ میلیون تومان ۵۰ هزار تومان هزینه ارسال دارند. سفارش‌های بیش از ۲ میلیون " +
        "تومان ارسال رایگان دارند."
    }]
    const reply = answerText("سفارشم ۳ میلیونه، ارسالش چقدره؟", shipping, { language: "fa" })
    expect(reply.split("\n")[1]).toContain("بیش از ۲ میلیون")
  })
})

describe("values in units of time compare in days", () => {
  it("places two months before in 'more than 21 days before'", () => {
    const cancelling = [{
      path: "cancel.md",
      text: "Cancelling\n\nCancel 7 to 21 days before: 50% of the price is kept. Cancel more than 21 days before: 20% " +
        "of the price is kept."
    }]
    expect(answerText("If I cancel two months before, what is kept?", cancelling).split("\n")[1]).toContain(
      "more than 21 days"
    )
  })
})

describe("keeping, lost property and growing", () => {
  it("reads 'hold on to' as keeping and what people 'leave behind' as lost property", () => {
    const club = [
      { path: "club.md", text: "Lockers\n\nLost property is kept for 14 days. Lockers are emptied every night." },
      { path: "club.md", text: "Food\n\nSnacks are sold at the desk." }
    ]
    expect(answerText("How long do you hold on to things people leave behind?", club)).toContain("14 days")
  })

  it("reads a follow-up asking whether it gets bigger as asking whether it rises", () => {
    const discounts = [
      { path: "d.md", text: "Loyalty\n\nCard holders get 3% off every order, rising to 8% after two years." },
      { path: "d.md", text: "Orders\n\nOrders ship in two days." }
    ]
    const reply = answerText("Can that get bigger?", discounts, { previousQuestion: "What discount do card holders get?" })
    expect(reply).toContain("rising to 8%")
  })
})

describe("phrasal verbs", () => {
  it("reads 'take the money' as charging", () => {
    const boxes = [
      { path: "sub.md", text: "Boxes\n\nWe charge your card two days before each box ships." },
      { path: "sub.md", text: "Couriers\n\nThe courier may take your box to a pickup point." }
    ]
    expect(answerText("When do you take the money for a box?", boxes)).toContain("two days before")
  })

  it("reads 'pull out' and 'back out' as cancelling", () => {
    const classes = [
      { path: "classes.md", text: "Classes\n\nCancel at least three hours before a class to avoid a fee." },
      { path: "classes.md", text: "Booking\n\nClasses can be booked a week ahead." }
    ]
    expect(answerText("How late can I pull out of a class?", classes)).toContain("three hours before")
  })

  it("reads 'take off' as removing", () => {
    const crew = [
      { path: "crew.md", text: "Fitting\n\nThe fitters cannot remove old radiators or shelving." },
      {
        path: "crew.md",
        text: "Before the visit\n\nPlease clear the wall of every radiator; the fitters will take their waste away."
      }
    ]
    expect(answerText("Can the fitters take the old radiator off?", crew)).toContain("cannot remove old radiators")
  })
})

describe("delivery staff", () => {
  it("reads drivers as the crew a document names", () => {
    const [driver = ""] = rootsOf("drivers")
    expect(mentions(rootsOf("Our crew will not hoist items over balconies."), driver)).toBe(true)
  })
})
