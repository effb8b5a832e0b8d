/**
 * The product list's opaque cursor: the assistant and the last position seen,
 * signed with an HMAC, so a tampered cursor or one of another assistant's list
 * is refused (400) instead of paging somewhere unexpected.
 */
import { Products } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { AdminToken } from "../Platform/AdminToken"

interface Position {
  readonly assistantId: string
  readonly position: string
}

export class ProductCursor extends Effect.Service<ProductCursor>()("ProductCursor", {
  effect: Effect.gen(function*() {
    // Every instance shares the operator token, so every instance accepts every other's cursors.
    const { token } = yield* AdminToken
    const key = createHash("sha256").update("dastyar product cursor\u0000").update(Redacted.value(token)).digest()
    const sign = (payload: string) => createHmac("sha256", key).update(payload).digest().subarray(0, 16)

    return {
      encode: ({ assistantId, position }: Position): string => {
        const payload = Buffer.from(JSON.stringify([assistantId, position])).toString("base64url")
        return `${payload}.${sign(payload).toString("base64url")}`
      },

      decode: (cursor: string, assistantId: string): Effect.Effect<string, Products.InvalidCursor> => {
        const [payload = "", signature = "", ...rest] = cursor.split(".")
        const given = Buffer.from(signature, "base64url")
        const expected = sign(payload)
        if (rest.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
          return Effect.fail(new Products.InvalidCursor())
        }
        const decoded: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
        return Array.isArray(decoded) && decoded[0] === assistantId && typeof decoded[1] === "string" &&
            /^\d+$/.test(decoded[1])
          ? Effect.succeed(decoded[1])
          : Effect.fail(new Products.InvalidCursor())
      }
    } as const
  }),
  dependencies: [AdminToken.Default]
}) {}
