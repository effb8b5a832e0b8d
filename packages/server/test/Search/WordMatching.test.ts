import { describe, expect, it } from "@effect/vitest"
import { matchTerm, parseQuery } from "../../src/Search/Query"
import { firstLetterVariants } from "../../src/Search/TermDictionary"

/** Whether `term` in the dictionary stands for the query word `word` (not the last word: no prefixes). */
const matches = (word: string, term: string) =>
  matchTerm({ ...parseQuery(word)[0] ?? { word, counts: true, prefix: false }, prefix: false }, term) !== null

describe("word matching: pairs that must and must not match", () => {
  it("a 4-letter word forgives a missing letter, a doubled one or a wrong vowel", () => {
    expect(matches("towl", "towel")).toBe(true)
    expect(matches("bokk", "bok")).toBe(true)
    expect(matches("lemp", "lamp")).toBe(true)
    expect(matches("کتیب", "کتاب")).toBe(true)
  })

  it("a 4-letter word forgives two neighbouring letters swapped, but not the first", () => {
    expect(matches("lmap", "lamp")).toBe(true)
    expect(matches("lapm", "lamp")).toBe(true)
    expect(matches("almp", "lamp")).toBe(false)
  })

  it("a 4-letter word never forgives a wrong consonant, a first letter or a digit", () => {
    expect(matches("cast", "case")).toBe(false)
    expect(matches("lamp", "damp")).toBe(false)
    expect(matches("owel", "towel")).toBe(false)
    expect(matches("s24a", "s23a")).toBe(false)
  })

  it("a 4-letter Persian word forgives a letter of the same sound or a key beside it, never another consonant", () => {
    expect(matches("ساعط", "ساعت")).toBe(true)
    expect(matches("حوله", "حوله")).toBe(true)
    expect(matches("ساعن", "ساعت")).toBe(true)
    expect(matches("ساعم", "ساعت")).toBe(false)
  })

  it("a Persian word with the ezafe, indefinite ی or colloquial plural ا is its dictionary word", () => {
    expect(matches("کفشی", "کفش")).toBe(true)
    expect(matches("کفشا", "کفش")).toBe(true)
    expect(matches("کیفای", "کیف")).toBe(true)
    expect(matches("کفشک", "کفش")).toBe(false)
    expect(matches("پای", "پا")).toBe(false)
  })

  it("a plural finds its family's other forms; unrelated words sharing letters do not", () => {
    expect(matches("hoodies", "hooded")).toBe(true)
    expect(matches("hoodies", "hood")).toBe(true)
    expect(matches("hoodies", "toothpaste")).toBe(false)
    expect(matches("hoodies", "hoodlum")).toBe(false)
  })

  it("a word that matches nothing is tried with its first letter swapped, dropped or typed by sound", () => {
    expect(firstLetterVariants("kamera")).toContain("camera")
    expect(firstLetterVariants("fone")).toContain("phone")
    expect(firstLetterVariants("phalt")).toContain("falt")
    expect(firstLetterVariants("ohne")).toContain("hone")
    expect(firstLetterVariants("xlamp")).toContain("lamp")
    expect(firstLetterVariants("صابن")).toContain("سابن")
  })
})
