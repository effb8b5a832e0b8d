/**
 * The product list's opaque cursor: the assistant and the last position seen,
 * signed with an HMAC, so a tampered cursor or one of another assistant's list
 * is refused (400) instead of paging somewhere unexpected.
 *
 * The HMAC key is derived from `DASTYAR_SECRET_KEY`, so every instance accepts
 * every other's cursors. Without that key (an external database and no key
 * set) each instance signs with a random key of its own: a cursor then pages
 * only on the instance that issued it, and a restart asks the client to start over.
 */
import { Products } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { SecretKey } from "../Platform/SecretKey"

interface Position {
  readonly assistantId: string
  readonly position: string
}

export class ProductCursor extends Effect.Service<ProductCursor>()("ProductCursor", {
  effect: Effect.gen(function*() {
    const secretKey = yield* SecretKey
    const key = yield* Option.match(secretKey.derive("dastyar product cursor"), {
      onSome: Effect.succeed,
      onNone: () =>
        Effect.as(
          Effect.logWarning("DASTYAR_SECRET_KEY is not set: a product list cursor pages only on its own instance"),
          randomBytes(32)
        )
    })
    const signWith = (key: Buffer, payload: string) =>
      createHmac("sha256", key).update(payload).digest().subarray(0, 16)
    const sign = (payload: string) => signWith(key, payload)
    // Cursors signed before a key rotation (DASTYAR_SECRET_KEY_PREVIOUS) still page.
    const previousKeys = secretKey.deriveRing("dastyar product cursor").slice(1).map((entry) => entry.key)
    const signedByAny = (payload: string, given: Buffer) =>
      [key, ...previousKeys].some((candidate) => {
        const expected = signWith(candidate, payload)
        return given.length === expected.length && timingSafeEqual(given, expected)
      })

    return {
      encode: ({ assistantId, position }: Position): string => {
        const payload = Buffer.from(JSON.stringify([assistantId, position])).toString("base64url")
        return `${payload}.${sign(payload).toString("base64url")}`
      },

      decode: (cursor: string, assistantId: string): Effect.Effect<string, Products.InvalidCursor> => {
        const [payload = "", signature = "", ...rest] = cursor.split(".")
        if (rest.length > 0 || !signedByAny(payload, Buffer.from(signature, "base64url"))) {
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
  dependencies: [SecretKey.Default]
}) {}
