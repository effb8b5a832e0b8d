import { describe, expect, it } from "vitest"
import { priceBounds } from "../../src/Chat/PriceBounds"

describe("price bounds in a question", () => {
  it("read a ceiling in English, with digits, words or separators", () => {
    expect(priceBounds("A red kettle under 1 million toman?")).toMatchObject({ maxPrice: 1_000_000 })
    expect(priceBounds("teapots below 750,000 rials")).toMatchObject({ maxPrice: 750_000 })
    expect(priceBounds("a lamp cheaper than two hundred thousand")).toMatchObject({ maxPrice: 200_000 })
  })

  it("read a ceiling in Persian, with Persian, Arabic-Indic or Latin digits", () => {
    expect(priceBounds("کتری قرمز زیر ۲ میلیون تومان")).toMatchObject({ maxPrice: 2_000_000 })
    expect(priceBounds("چای‌ساز ارزان‌تر از ۵۰۰ هزار")).toMatchObject({ maxPrice: 500_000 })
    expect(priceBounds("کتری کمتر از ٣٠٠ هزار تومن")).toMatchObject({ maxPrice: 300_000 })
    expect(priceBounds("لیوان حداکثر 90000 تومان")).toMatchObject({ maxPrice: 90_000 })
  })

  it("read floors and ranges", () => {
    expect(priceBounds("kettles over 2 million toman")).toMatchObject({ minPrice: 2_000_000 })
    expect(priceBounds("کتری بالای یک میلیون تومان")).toMatchObject({ minPrice: 1_000_000 })
    expect(priceBounds("a mug between 100k and 300k")).toMatchObject({ minPrice: 100_000, maxPrice: 300_000 })
    expect(priceBounds("کتری بین ۵۰۰ هزار تا ۸۰۰ هزار تومان")).toMatchObject({ minPrice: 500_000, maxPrice: 800_000 })
  })

  it("leave out the bound's words from the product query", () => {
    expect(priceBounds("A red kettle under 1 million toman?").query).toBe("a red kettle")
    expect(priceBounds("کتری قرمز زیر ۲ میلیون تومان").query).toBe("کتری قرمز")
  })

  it("read no bound from amounts that are not prices", () => {
    expect(priceBounds("a cable under 2 metres")).toEqual({ query: "a cable under 2 metres" })
    expect(priceBounds("ارسال تا ۷ روز")).toEqual({ query: "ارسال تا ۷ روز" })
    expect(priceBounds("a red kettle")).toEqual({ query: "a red kettle" })
  })
})
