/**
 * Hours a timetable states and the kind of value a question asks: a timetable's line of hours marked am or pm,
 * closing time asked as opening is, a verb after "چند", "how much to …", an address a question only uses, a
 * number of times counted in the occasions a document names, "بیشتر از" as a bound, and a fraction stated as an
 * amount.
 */
import { describe, expect, it } from "vitest"
import { expectedOf } from "../../src/Chat/AskedValue"
import { valuesOf } from "../../src/Chat/StatedValues"
import { timesOfDayIn } from "../../src/Chat/Weekdays"
import { answerText } from "./support/Compose"

const declinesEn = /^I don't know/

describe("a timetable's hours marked am or pm", () => {
  it("reads a line of days and hours as clock hours, past noon too", () => {
    expect(timesOfDayIn("Tuesday 10am - 4pm")).toContain("open")
    expect(timesOfDayIn("Opening hours: Weekdays 9.30am to 6pm")).toContain("open")
  })

  it("does not read hours of another thing in a sentence as opening hours", () => {
    expect(timesOfDayIn("We collect parcels between 10 am and 3 pm on weekdays.")).toEqual([])
  })

  it("answers when the shop closes on a day from its line of hours", () => {
    const hours = [{ path: "hours.txt", text: "Studio\n\nHOURS\nMonday to Friday   10am - 6pm\nSaturday   closed" }]
    expect(answerText("what time do you close on fridays?", hours)).toContain("10am - 6pm")
    expect(answerText("what time do you shut on mondays?", hours)).toContain("10am - 6pm")
  })
})

describe("the kind of value a question asks", () => {
  it("reads 'تا ساعت چند' as until when, and a verb after 'چند' as no unit", () => {
    expect(expectedOf("جمعه تا ساعت چند باز هستین").expected).toBe("duration")
    expect(expectedOf("برای تعویض لاستیک چند میگیرید").expected).toBe("price")
    expect(expectedOf("این کار چند میشه").unit).toBeUndefined()
  })

  it("reads 'how much to …' and 'what would … cost' as asking a price", () => {
    expect(expectedOf("how much to fix a cracked screen").expected).toBe("price")
    expect(expectedOf("what would a new battery cost").expected).toBe("price")
    expect(expectedOf("how much room does it need").expected).not.toBe("price")
  })

  it("does not read an address the question only uses as one it asks for", () => {
    expect(expectedOf("can I have parcels sent to your address?").expected).toBe("any")
    expect(expectedOf("what is your address?").expected).toBe("address")
  })
})

describe("a fraction is an amount", () => {
  const terms = [
    { path: "terms.md", text: "Orders\n\nWe ask for half of the fee when you order. The rest is paid on collection." },
    { path: "more.md", text: "Care\n\nWe use only water-based inks." }
  ]

  it("answers how much is paid up front with the fraction stated", () => {
    expect(answerText("how much of the fee do I pay when I order?", terms)).toContain("half of the fee")
  })

  it("still declines what no passage speaks of", () => {
    expect(answerText("how many colours can you print?", terms)).toMatch(declinesEn)
  })

  it("does not take a fraction of something other than a charge for a price", () => {
    const shares = [{ path: "about.md", text: "About us\n\nHalf of our posters are printed on recycled paper." }]
    expect(answerText("how much does a poster cost?", shares)).toMatch(declinesEn)
  })
})

describe("a number of times is counted in the occasions a document names", () => {
  it("asks for a number without a unit of its own", () => {
    expect(expectedOf("چند بار مشاوره رایگان دارید").unit).toBeUndefined()
    expect(expectedOf("how many times can I reschedule?").unit).toBeUndefined()
  })

  it("answers how many times with the sessions stated", () => {
    const terms = [
      { path: "terms.md", text: "مشاوره\n\nهر پروژه سه جلسه مشاوره رایگان دارد. جلسه بیشتر ۲۰۰ هزار تومان است." }
    ]
    expect(answerText("چند بار مشاوره رایگان دارید؟", terms, { language: "fa" })).toContain("سه جلسه مشاوره")
  })
})

describe("'بیشتر از' opens a bound upwards", () => {
  it("reads 'بیشتر از ۳۰' as every value above 30", () => {
    expect(valuesOf("بیشتر از ۳۰ کیلومتر")).toContainEqual([30, Infinity])
  })

  it("quotes first the row whose bound holds the value the question states", () => {
    const rates = [{
      path: "rates.md",
      text: "نرخ\n\n| فاصله | کرایه |\n|---|---|\n| تا ۱۰ کیلومتر | ۹۰ هزار تومان |\n" +
        "| ۱۰ تا ۲۵ کیلومتر | ۱۶۰ هزار تومان |\n| بیشتر از ۲۵ کیلومتر | ۱۶۰ هزار تومان و هر کیلومتر اضافه ۷ هزار تومان |"
    }]
    const answer = answerText("برای 60 کیلومتر کرایه چقدره", rates, { language: "fa" })
    expect(answer.indexOf("هر کیلومتر اضافه")).toBeGreaterThanOrEqual(0)
    expect(answer.indexOf("هر کیلومتر اضافه")).toBeLessThan(answer.indexOf("۹۰ هزار تومان"))
  })
})
