import { describe, expect, it } from "vitest"
import { isNumberWord, isOrdinal, parseNumber, readNumbers } from "../../src/Search/Numbers"

const ranges = (text: string) => readNumbers(text).quantities.map(({ max, value }) => [value, max])

describe("Numbers", () => {
  it("reads digits of the Latin, Persian and Arabic-Indic scripts alike", () => {
    expect(parseNumber("7")).toBe(7)
    expect(parseNumber("۷")).toBe(7)
    expect(parseNumber("٧")).toBe(7)
    expect(parseNumber("۱۴")).toBe(14)
    expect(parseNumber("٢٥")).toBe(25)
  })

  it("reads thousands separators and decimals of both scripts", () => {
    expect(parseNumber("1,650,000")).toBe(1_650_000)
    expect(parseNumber("۱٬۶۵۰٬۰۰۰")).toBe(1_650_000)
    expect(parseNumber("2.5")).toBe(2.5)
    expect(parseNumber("۲٫۵")).toBe(2.5)
  })

  it("reads English number words and their compounds", () => {
    expect(parseNumber("seven")).toBe(7)
    expect(parseNumber("Twenty-one")).toBe(21)
    expect(parseNumber("twenty one")).toBe(21)
    expect(parseNumber("one hundred and fifty")).toBe(150)
    expect(parseNumber("a hundred")).toBe(100)
    expect(parseNumber("three thousand two hundred")).toBe(3200)
  })

  it("reads Persian number words and their compounds, with or without spaces around و", () => {
    expect(parseNumber("هفت")).toBe(7)
    expect(parseNumber("بیست و یک")).toBe(21)
    expect(parseNumber("صد و پنجاه")).toBe(150)
    expect(parseNumber("چهل‌وهشت")).toBe(48)
    expect(parseNumber("چهلوهشت")).toBe(48)
    expect(parseNumber("سیصد و شصت و پنج")).toBe(365)
    expect(parseNumber("دو هزار و پانصد")).toBe(2500)
    expect(parseNumber("يك")).toBe(1)
  })

  it("reads amounts: digits or words with a scale word", () => {
    expect(parseNumber("1 million")).toBe(1_000_000)
    expect(parseNumber("۱ میلیون")).toBe(1_000_000)
    expect(parseNumber("۵۰۰ هزار")).toBe(500_000)
    expect(parseNumber("1.5 million")).toBe(1_500_000)
    expect(parseNumber("یک میلیون و نیم")).toBe(1_500_000)
    expect(parseNumber("یک میلیون و پانصد هزار")).toBe(1_500_000)
    expect(parseNumber("50k")).toBe(50_000)
    expect(parseNumber("دو و نیم")).toBe(2.5)
  })

  it("reads a half on its own as one half, not as half of an open place", () => {
    expect(parseNumber("half")).toBe(0.5)
    expect(parseNumber("نیم")).toBe(0.5)
    expect(readNumbers("half of the guests come back").quantities.map((q) => q.value)).toEqual([0.5])
  })

  it("reads ranges written with words, تا, a dash or between…and", () => {
    expect(ranges("other provinces take three to five days")).toEqual([[3, 5]])
    expect(ranges("ارسال ۳ تا ۵ روز کاری")).toEqual([[3, 5]])
    expect(ranges("3-5 working days")).toEqual([[3, 5]])
    expect(ranges("between 2 and 4 weeks")).toEqual([[2, 4]])
    expect(ranges("بین دو تا چهار روز")).toEqual([[2, 4]])
  })

  it("keeps separate numbers apart", () => {
    expect(ranges("3 books and 4 pens")).toEqual([[3, 3], [4, 4]])
    expect(ranges("سه و چهار")).toEqual([[3, 3], [4, 4]])
    // A range runs upwards; "10 to 2" is two numbers.
    expect(ranges("open 10 to 2")).toEqual([[10, 10], [2, 2]])
  })

  it("does not read words that only look like numbers alone", () => {
    expect(ranges("a book")).toEqual([])
    expect(ranges("نه، ارسال نداریم")).toEqual([])
    expect(ranges("نه روز")).toEqual([[9, 9]])
    expect(ranges("یه کتاب")).toEqual([])
    expect(ranges("یه روز")).toEqual([[1, 1]])
    expect(ranges("دوربین")).toEqual([])
  })

  it("tells number words from other words", () => {
    expect(isNumberWord("هفت")).toBe(true)
    expect(isNumberWord("42")).toBe(true)
    expect(isNumberWord("thousand")).toBe(true)
    expect(isNumberWord("book")).toBe(false)
    expect(isNumberWord("نه")).toBe(false)
  })
})

describe("ordinals", () => {
  it("reads ordinal words and digits with their ending in both languages", () => {
    for (const word of ["fifth", "twelfth", "3rd", "پنجم", "پنجمین", "دوم"]) expect(isOrdinal(word), word).toBe(true)
  })

  it("reads no other word as an ordinal", () => {
    for (const word of ["floor", "fifty", "پنج", "مردم"]) expect(isOrdinal(word), word).toBe(false)
  })
})

describe("colloquial scales", () => {
  it("reads a scale with the spoken 'is' ('سه میلیونه')", () => {
    expect(parseNumber("۳ میلیونه")).toBe(3e6)
    expect(parseNumber("سه میلیونه")).toBe(3e6)
  })
})
