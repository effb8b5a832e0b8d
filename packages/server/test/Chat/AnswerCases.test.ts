import { describe, expect, it } from "vitest"
import { answerText } from "./support/Compose"

const ask = answerText

const declinesEn = /^I don't know/

describe("a 'what if' question is answered by the rule for that case", () => {
  it("quotes a rule's condition with the sentence after it that states the other case", () => {
    const repairs = [{
      path: "repairs.md",
      text: "Repairs\n\nReport a fault within 30 days and we repair the scooter at no cost. " +
        "Report it after 30 days and the workshop charges for parts."
    }]
    const text = ask("What if I report the fault after six weeks?", repairs)
    expect(text).toContain("at no cost. Report it after 30 days and the workshop charges for parts")
  })

  it("answers a Persian 'اگه … چی میشه؟' with the sentence about that case", () => {
    const repairs = [{
      path: "repairs.md",
      text: "تعمیرات\n\nاگر دستگاه در ماه اول خراب شود، رایگان تعمیر می‌شود. پس از ماه اول، هزینه قطعات با مشتری است."
    }]
    expect(ask("اگه دستگاه ماه دوم خراب بشه چی میشه؟", repairs, { language: "fa" })).toContain("هزینه قطعات")
  })
})

describe("a sentence that bounds where a service is given", () => {
  const fitting = [{ path: "fitting.md", text: "Fitting\n\nWe fit kitchens within 20 miles of our Hull workshop." }]

  it("answers for a place no passage names, in either language", () => {
    expect(ask("Do you fit kitchens in Leeds?", fitting)).toContain("within 20 miles")
    const persian = [{ path: "fitting.md", text: "نصب\n\nنصب کابینت فقط در محدوده شهر شیراز انجام می‌شود." }]
    expect(ask("به مرودشت هم نصب کابینت دارین؟", persian, { language: "fa" })).toContain("فقط در محدوده")
  })

  it("does not answer whether the shop has premises in that place", () => {
    expect(ask("Do you have a showroom in Leeds?", fitting)).toMatch(declinesEn)
  })

  it("is not a time limit that names a place", () => {
    const dispatch = [{ path: "dispatch.md", text: "Dispatch\n\nWe deliver from our Tehran depot within two working days." }]
    expect(ask("Do you deliver to Rasht?", dispatch)).toMatch(declinesEn)
  })
})

describe("a value the question states", () => {
  it("picks the row of a table written as text whose range holds it", () => {
    const sizes = [{
      path: "gloves.md",
      text: "Gloves › Sizes\n\nS — palm 17 to 18 cm\nM — palm 19 to 20 cm\nL — palm 21 to 23 cm"
    }]
    const text = ask("My palm is 20 cm, which glove size fits?", sizes)
    expect(text.split("\n")[1] ?? text).toContain("M — palm 19 to 20 cm")
  })

  it("reads 'tomorrow' or 'فردا' as a day from now, not a word the passages must hold", () => {
    const boats = [{
      path: "boats.md",
      text: "Boat trips\n\nTrips called off 5 days ahead or more are refunded in full. " +
        "Within 36 hours of sailing, trips are not refunded, though the booking can move to another date once."
    }, {
      path: "boats.md",
      text: "Paying\n\nMoney goes back to the card used within three working days. Onboard drinks are never repaid. " +
        "Life jackets are lent free on every trip."
    }, {
      path: "harbour.md",
      text: "Mooring\n\nGuests may moor a private dinghy for £12 a night. The harbour office opens on Tuesdays and Fridays."
    }]
    expect(ask("If we cancel the trip tomorrow, is it refunded?", boats)).toContain("move to another date")
    const sofalgari = [{
      path: "sofal.md",
      text: "کلاس سفالگری\n\nلغو تا ۵ روز قبل از کلاس، کل مبلغ برگشت داده میشود. " +
        "کمتر از ۳۶ ساعت مانده به کلاس، مبلغ برگشت داده نمیشود ولی میتوانید کلاس را یک بار به هفته بعد ببرید."
    }, {
      path: "sofal.md",
      text: "پرداخت\n\nمبلغ ظرف پنج روز کاری به کارت شما برگشت داده میشود. کارت هدیه برگشت داده نمیشود. " +
        "گل و لعاب در شهریه هر کلاس حساب شده است."
    }, {
      path: "koore.md",
      text: "کوره\n\nاعضا میتوانند کوره را برای هر پخت ۲۰۰ هزار تومان کرایه کنند. پخت دوشنبه‌ها و پنجشنبه‌ها است."
    }]
    // The day from now falls in the rule's range of hours: that case leads.
    const persian = ask("فردا نمیتونم بیام کلاس، پولمو برگشت میدین؟", sofalgari, { language: "fa" })
    expect(persian.split("\n")[1]).toMatch(/^- «کمتر از ۳۶ ساعت/u)
  })
})

describe("a plain-text document's titles", () => {
  it("name the section under them and are never quoted as the answer", () => {
    const rules = [{
      path: "gym.txt",
      text: "CITY GYM - MEMBERSHIP RULES\n1. Freezing\nYou can freeze your membership for up to 60 days a year.\n" +
        "2. Guests\nEach member may bring one guest per month."
    }]
    const text = ask("Can I freeze my membership?", rules)
    expect(text).toContain("Freezing: You can freeze your membership for up to 60 days a year.")
    expect(text).not.toMatch(/"(?:1\. )?Freezing"|"CITY GYM - MEMBERSHIP RULES"/u)
  })
})

describe("phrases a customer asks with", () => {
  it("read 'call off' as cancelling and 'sold out' as out of stock", () => {
    const classes = [{ path: "classes.md", text: "Classes\n\nIf we cancel a class, you get a full refund." }]
    expect(ask("What happens if you call off my class?", classes)).toContain("full refund")
    const stock = [{ path: "stock.md", text: "Orders\n\nIf a colour is out of stock, we send a voucher instead." }]
    expect(ask("What if the colour I want is sold out?", stock)).toContain("voucher")
  })

  it("do not read a credit note as buying on credit", () => {
    const tickets = [{ path: "tickets.md", text: "Tickets\n\nLate cancellations get a credit note valid for a year." }]
    expect(ask("Can I pay for a ticket in instalments?", tickets)).toMatch(declinesEn)
  })

  it("leave out whom an order is for", () => {
    const flowers = [{
      path: "flowers.md",
      text: "Flowers › Ordering\n\nBouquets need a day's notice. We do not post flowers; our drivers bring them."
    }]
    expect(ask("Can you post flowers to my grandmother?", flowers)).toContain("We do not post flowers")
  })
})

describe("between sentences a heading makes equal", () => {
  it("the one stating the question's words itself leads", () => {
    const cakes = [{
      path: "cakes.md",
      text: "Ordering & Delivery › Cakes\n\nCakes need two days' notice. Cakes are never posted; collect them in the shop."
    }]
    expect(ask("Do you post cakes?", cakes).split("\n")[0]).toContain("Cakes are never posted")
  })
})
