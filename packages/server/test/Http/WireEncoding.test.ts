/**
 * Responses the service writes without the API's schema encode (`Platform/Success`)
 * must be byte for byte what that encode writes: same keys, same order, same
 * values, same envelope, in every language.
 */
import { Assistants, Chat, Content, Documents, Envelope, I18n, Products, WireEncoder } from "@dastyar/domain"
import { describe, expect, it } from "@effect/vitest"
import * as Arbitrary from "effect/Arbitrary"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"

/** What `HttpApiBuilder` encodes a handler's value with: the endpoint's own success schema. */
const schemaEncoded = <A, I>(schema: Schema.Schema<A, I>, value: A, locale: I18n.Locale) =>
  JSON.stringify(Effect.runSync(Schema.encode(schema)(value).pipe(Effect.locally(I18n.CurrentLocale, locale))))

const assistant = (overrides: Partial<Assistants.Assistant>): Assistants.Assistant => ({
  id: Assistants.AssistantId.make("ast_7fc27f726e3a213c0d3dc633"),
  name: "Shop helper",
  instruction: null,
  model: "dastyar-local",
  reasoning: "none",
  status: "active",
  description: null,
  personality: null,
  language: null,
  identitySettings: { fields: [], otp: false },
  ragK: null,
  maxOutputTokens: null,
  imageDetail: null,
  operatorsCanViewCustomerFiles: false,
  avatarUrl: null,
  acceptVoice: false,
  productSearch: true,
  planLimits: null,
  createdAt: DateTime.unsafeMake("2026-11-01T09:32:00.123Z"),
  ...overrides
})

const lists: ReadonlyArray<ReadonlyArray<Assistants.Assistant>> = [
  [],
  [assistant({})],
  [
    assistant({}),
    assistant({
      id: Assistants.AssistantId.make("ast_second"),
      name: "دستیار فروشگاه \"quoted\" \\ \u2028",
      instruction: "Answer briefly.\nNever guess.",
      reasoning: "high",
      status: "provisioning_failed",
      description: "A description",
      personality: "friendly",
      language: "fa",
      identitySettings: { fields: ["mobile", "email"], otp: true },
      ragK: 8,
      maxOutputTokens: 1024,
      imageDetail: "high",
      operatorsCanViewCustomerFiles: true,
      avatarUrl: "https://example.com/a.png",
      acceptVoice: true,
      productSearch: false,
      planLimits: { products: 5000 },
      createdAt: DateTime.unsafeMake("2026-01-02T03:04:05Z")
    })
  ]
]

describe("wire encoding without the schema encode", () => {
  const listResponse = Assistants.AssistantListResponse
  const encodeList = WireEncoder.make(Envelope.ListOf(Assistants.Assistant))

  for (const locale of ["en", "fa"] as const) {
    it(`GET /v1/assistants body equals the schema-encoded one (${locale})`, () => {
      for (const list of lists) {
        const message = I18n.translate(locale, "success")
        expect(JSON.stringify(Envelope.successWire(encodeList({ list, count: list.length }), message))).toBe(
          schemaEncoded(listResponse, { list, count: list.length }, locale)
        )
      }
    })
  }

  // Any value of these response shapes (optional fields, nested structs, arrays, unions, dates, records).
  const sameAsSchema = <A, I>(name: string, schema: Schema.Schema<A, I>) =>
    it(`equals Schema.encode for any ${name}`, () => {
      const encode = WireEncoder.make(schema)
      const bySchema = Schema.encodeSync(schema)
      FastCheck.assert(
        FastCheck.property(Arbitrary.make(schema), (value) => {
          expect(JSON.stringify(encode(value))).toBe(JSON.stringify(bySchema(value)))
        }),
        { numRuns: 200, seed: 42 }
      )
    })
  sameAsSchema("Assistant", Assistants.Assistant)
  sameAsSchema("Product", Products.Product)
  sameAsSchema("ProductPage", Products.ProductPage)
  sameAsSchema("ProductSearchHit", Products.ProductSearchHit)
  sameAsSchema("Document", Documents.Document)
  sameAsSchema("DocumentIngestJob", Documents.DocumentIngestJob)
  sameAsSchema("ChatReply", Chat.ChatReply)
  sameAsSchema("Article", Content.Article)

  // A record of wire-form values, and a struct without fields (any object to the schema), go through as they are.
  it("passes a record of plain values and an empty struct's value through, as the schema encodes them", () => {
    const attributes = Products.Product.fields.attributes
    const value = { color: "red", "رنگ": "قرمز", capacityMl: 1000, dishwasherSafe: true }
    expect(WireEncoder.make(attributes)(value)).toBe(value)
    expect(JSON.stringify(value)).toBe(JSON.stringify(Schema.encodeSync(attributes)(value)))
    const empty = Schema.Struct({})
    const withExtra = { extra: 1 }
    expect(JSON.stringify(WireEncoder.make(empty)(withExtra))).toBe(JSON.stringify(Schema.encodeSync(empty)(withExtra)))
  })
})
