import { describe, expect, it } from "@effect/vitest"
import { keyValues, table } from "../src/Render"

describe("human layouts", () => {
  it("aligns table columns to the widest cell and trims trailing space", () => {
    const rows = [{ id: "a1", name: "Short", note: null }, { id: "b22", name: "A longer name", note: "x" }]
    const text = table(rows, [
      { header: "id", value: (row) => row.id },
      { header: "name", value: (row) => row.name },
      { header: "note", value: (row) => row.note }
    ])
    expect(text.split("\n")).toEqual([
      "id   name           note",
      "a1   Short          -",
      "b22  A longer name  x"
    ])
  })

  it("prints objects as aligned key: value lines, nested values as compact JSON", () => {
    expect(keyValues({ id: "acc_1", plan: "free", limits: { products: 10 }, description: null })).toBe(
      ["id:          acc_1", "plan:        free", "limits:      {\"products\":10}", "description: -"].join("\n")
    )
  })
})
