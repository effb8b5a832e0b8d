/**
 * The web channel's token keys, each derived from `DASTYAR_SECRET_KEY` for one
 * purpose, and the tokens made with them: the visitor's (which connection,
 * which browser, which signed-in customer) and the console's preview token.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import { SecretKey } from "../../Platform/SecretKey"
import * as SignedToken from "./SignedToken"

/** `c`: connection code, `v`: this browser's random id, `u`: the shop's customer id once proven. */
export const VisitorClaims = Schema.Struct({
  c: Schema.String,
  v: Schema.String,
  u: Schema.optional(Schema.String)
})
export type VisitorClaims = typeof VisitorClaims.Type

/** `c`: connection code, `o`: the origin allowed, `e`: expiry in Unix seconds. */
const PreviewClaims = Schema.Struct({ c: Schema.String, o: Schema.String, e: Schema.Number })

/** One conversation per customer when identified, per browser otherwise; within one connection. */
export const principalOf = (claims: VisitorClaims) =>
  claims.u === undefined ? `web:visitor:${claims.v}` : `web:user:${claims.u}`

export class WebKeys extends Effect.Service<WebKeys>()("WebKeys", {
  effect: Effect.gen(function*() {
    const secretKey = yield* SecretKey
    // Without a key no web connection can be opened (its secret is sealed), so these keys sign nothing
    // that outlives the process; a random one keeps the types simple.
    const derive = (purpose: string) => Option.getOrElse(secretKey.derive(purpose), () => randomBytes(32))
    const visitorKey = derive("web-visitor-token")
    const previewKey = derive("web-preview-token")

    return {
      /** A new visitor of the connection (a signed-in customer when `userId` is given). */
      issueVisitor: (code: string, userId?: string) => {
        const claims: VisitorClaims = {
          c: code,
          v: randomBytes(16).toString("base64url"),
          ...(userId === undefined ? {} : { u: userId })
        }
        return { token: SignedToken.sign(visitorKey, claims), claims }
      },

      /** The claims of a visitor token of this connection; none for another connection's or an altered one. */
      visitor: (code: string, token: string | undefined) =>
        token === undefined
          ? Option.none<VisitorClaims>()
          : Option.filter(SignedToken.verify(visitorKey, token, VisitorClaims), (claims) => claims.c === code),

      preview: (code: string, origin: string, expiresAt: Date) =>
        SignedToken.sign(previewKey, { c: code, o: origin, e: Math.floor(expiresAt.getTime() / 1000) }),

      /**
       * A preview token of this connection, unexpired, for this origin. A same-origin GET carries no
       * `Origin` (the console previewing on its own page), and is let through on the token alone.
       */
      previewHolds: (code: string, token: string | undefined, origin: string | undefined, now: Date) =>
        token !== undefined && Option.exists(
          SignedToken.verify(previewKey, token, PreviewClaims),
          (claims) =>
            claims.c === code && claims.e * 1000 > now.getTime() && (origin === undefined || claims.o === origin)
        )
    } as const
  }),
  dependencies: [SecretKey.Default]
}) {}
