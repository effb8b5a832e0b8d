import { describe, expect, it } from "@effect/vitest"
import { ProductFeed } from "../src/index"

const { checkFeed, csvProducts, elementLines, readFeed } = ProductFeed

describe("CSV feeds", () => {
  it("known columns become fields, others attributes; numbers and booleans typed; empty cells left out", () => {
    const csv = [
      "External_ID,Title,category,Price,in stock,Image URL,color,capacityMl,dishwasherSafe,code",
      "sku-1,Blue teapot,Kitchen,890000,yes,https://x.example/1.jpg,blue,1000,true,007",
      "sku-2,\"Red, large\",,12.5,0,,red,,FALSE,1e3"
    ].join("\n")
    expect(csvProducts(csv).records).toEqual([
      {
        line: 2,
        problem: undefined,
        value: {
          externalId: "sku-1",
          title: "Blue teapot",
          category: "Kitchen",
          price: 890000,
          inStock: true,
          imageUrl: "https://x.example/1.jpg",
          // A leading zero marks a code, not a number.
          attributes: { color: "blue", capacityMl: 1000, dishwasherSafe: true, code: "007" }
        }
      },
      {
        line: 3,
        problem: undefined,
        value: {
          externalId: "sku-2",
          title: "Red, large",
          price: 12.5,
          inStock: false,
          attributes: { color: "red", dishwasherSafe: false, code: 1000 }
        }
      }
    ])
  })

  it("line numbers count quoted line breaks and blank lines; a wrong cell count is a problem of its row", () => {
    const csv = "externalId,title\nA,\"two\nlines\"\n\n\nB,b\nC,c,extra\n"
    expect(csvProducts(csv).records.map(({ line, problem }) => [line, problem])).toEqual([
      [2, undefined],
      [6, undefined],
      [7, "has 3 cells; the header has 2"]
    ])
  })

  it("an attributes column may hold a JSON object; separate columns win", () => {
    const csv = "externalId,title,attributes,color\nA,a,\"{\"\"color\"\":\"\"red\"\",\"\"size\"\":2}\",blue\n"
    expect(csvProducts(csv).records[0]?.value).toEqual({
      externalId: "A",
      title: "a",
      attributes: { color: "blue", size: 2 }
    })
  })
})

describe("JSON feeds", () => {
  it("finds the line each element starts on, in a top-level array or under products", () => {
    const array =
      "[\n  {\"externalId\": \"a\", \"title\": \"[x], {y}\"},\n\n  {\n    \"externalId\": \"b\"\n  }, {\"c\": [1, 2]}\n]"
    expect(elementLines(array)).toEqual([2, 4, 6])
    const wrapped =
      "{\"meta\": [1, 2],\n \"products\": [\n  {\"externalId\": \"a\"},\n  {\"externalId\": \"b\\\"\"}\n ]}"
    expect(elementLines(wrapped)).toEqual([3, 4])
    expect(elementLines("[]")).toEqual([])
  })
})

describe("reading a feed's text", () => {
  it("Windows line ends, a byte-order mark and Persian text read as any other CSV", () => {
    const feed = readFeed("\uFEFFexternalId,title,قیمت\r\nتی-۱,\"قوری\r\nچینی\",۲۰۰\r\n\r\nmug,لیوان,3\r\n", "csv")
    expect(feed.rows).toEqual([
      { line: 2, value: { externalId: "تی-۱", title: "قوری\r\nچینی", attributes: { "قیمت": "۲۰۰" } } },
      { line: 5, value: { externalId: "mug", title: "لیوان", attributes: { "قیمت": 3 } } }
    ])
  })

  it("an unclosed quote makes the file unreadable, naming the line it opens on", () => {
    expect(() => readFeed("externalId,title\na,b\nc,\"open\nd,e\n", "csv")).toThrow(
      new ProductFeed.FeedUnreadable("line 3: Quoted field unterminated")
    )
  })

  it("says what each column fills: a field, an attribute, or for JSON keys the API lacks, nothing", () => {
    expect(readFeed("External ID,Title,in_stock,color\n", "csv").columns).toEqual([
      { name: "External ID", fills: { field: "externalId" } },
      { name: "Title", fills: { field: "title" } },
      { name: "in_stock", fills: { field: "inStock" } },
      { name: "color", fills: "attribute" }
    ])
    expect(readFeed("{\"products\": [{\"externalId\": \"a\", \"title\": \"A\", \"colour\": \"red\"}]}", "json").columns)
      .toEqual([
        { name: "externalId", fills: { field: "externalId" } },
        { name: "title", fills: { field: "title" } },
        { name: "colour", fills: "ignored" }
      ])
  })

  it("the format comes from a file name's extension", () => {
    expect(["a.CSV", "b.json", "c.ndjson", "d.jsonl", "e.txt", "csv"].map(ProductFeed.formatOfName))
      .toEqual(["csv", "json", "jsonl", "jsonl", undefined, undefined])
  })

  it("refused rows carry their line, field and reason in the caller's language", () => {
    const feed = readFeed("externalId,title,price\nok,Fine,10\nbad id,,-1\nok,Again,2\n", "csv")
    const checked = checkFeed(feed, "fa")
    expect(checked.products.map((product) => product.externalId)).toEqual(["ok"])
    expect(checked.problems).toEqual([
      { line: 3, field: "externalId", message: expect.any(String) },
      { line: 3, field: "title", message: "الزامی است" },
      { line: 3, field: "price", message: expect.any(String) },
      { line: 4, field: "externalId", message: "ok repeats line 2" }
    ])
  })
})
