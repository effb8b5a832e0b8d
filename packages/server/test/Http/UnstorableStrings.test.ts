/**
 * The character rule on JSON bodies: which strings it names, and that a body
 * without an escape that could hold such a character is not walked at all.
 */
import { describe, expect, it } from "@effect/vitest"
import { mayHoldUnstorable, unstorableInJson, unstorableInJsonText } from "../../src/Http/UnstorableStrings"

describe("the character rule on JSON bodies", () => {
  it("names strings and keys by their dotted path, array positions included", () => {
    const body = JSON.parse(
      "{\"a\":[1,\"ok\",{\"b\":\"x\\u0000\"}],\"k\\ud800\":true,\"c\":{\"d\":[[\"\\udfff\"]]},\"e\":\"\\ud83d\\ude00\"}"
    )
    expect(unstorableInJson(body)).toEqual(["a.2.b", "k\ud800", "c.d.0.0"])
  })

  it("a string body is named `body`; numbers, booleans and null hold nothing", () => {
    expect(unstorableInJson("\u0000")).toEqual(["body"])
    expect(unstorableInJson([0, 1.5, true, null])).toEqual([])
  })

  it("a body nested thousands of levels deep is walked without recursion", () => {
    const depth = 100_000
    const text = `${"[".repeat(depth)}"\\u0000"${"]".repeat(depth)}`
    const found = unstorableInJsonText(text)
    expect(found).toHaveLength(1)
    expect(found[0]?.split(".")).toHaveLength(depth)
  })

  it("only a \\u0000 or surrogate escape makes a body worth walking", () => {
    expect(mayHoldUnstorable(`[${"0,".repeat(1000)}0]`)).toBe(false)
    expect(mayHoldUnstorable("{\"a\":\"\\u00e9 \\n \\u200c\"}")).toBe(false)
    expect(mayHoldUnstorable("{\"a\":\"\\u0000\"}")).toBe(true)
    expect(mayHoldUnstorable("{\"a\":\"\\uD83D\"}")).toBe(true)
    expect(mayHoldUnstorable("{\"a\":\"\\udc00\"}")).toBe(true)
  })

  it("an unparsable text is left to the body's reader", () => {
    expect(unstorableInJsonText("{\"a\":\"\\u0000\"")).toEqual([])
  })
})
