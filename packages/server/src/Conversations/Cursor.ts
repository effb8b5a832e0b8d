/**
 * The conversation list's opaque cursor: the list it belongs to and the last
 * position seen, signed with an HMAC (as the product list's), so a tampered
 * cursor or one of another list is refused (400) instead of paging elsewhere.
 */
import { Conversations } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { SecretKey } from "../Platform/SecretKey"
import type { Position } from "./ConversationLogRepo"

export class ConversationCursor extends Effect.Service<ConversationCursor>()("ConversationCursor", {
  effect: Effect.gen(function*() {
    const secretKey = yield* SecretKey
    const key = Option.getOrElse(secretKey.derive("dastyar conversation cursor"), () => randomBytes(32))
    const sign = (payload: string) => createHmac("sha256", key).update(payload).digest().subarray(0, 16)

    return {
      /** `list` names the list (an assistant, or the operator's). */
      encode: (list: string, position: Position): string => {
        const payload = Buffer.from(JSON.stringify([list, position.at, position.id])).toString("base64url")
        return `${payload}.${sign(payload).toString("base64url")}`
      },

      decode: (cursor: string, list: string): Effect.Effect<Position, Conversations.InvalidCursor> => {
        const [payload = "", signature = "", ...rest] = cursor.split(".")
        const given = Buffer.from(signature, "base64url")
        const expected = sign(payload)
        if (rest.length > 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) {
          return Effect.fail(new Conversations.InvalidCursor())
        }
        const decoded: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"))
        return Array.isArray(decoded) && decoded[0] === list && typeof decoded[1] === "string" &&
            typeof decoded[2] === "string"
          ? Effect.succeed({ at: decoded[1], id: decoded[2] })
          : Effect.fail(new Conversations.InvalidCursor())
      }
    } as const
  }),
  dependencies: [SecretKey.Default]
}) {}
