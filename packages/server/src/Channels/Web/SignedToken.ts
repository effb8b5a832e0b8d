/**
 * Small signed tokens of the web channel (the visitor's, the console's
 * preview): `base64url(JSON payload).base64url(HMAC-SHA256)`, each kind with
 * its own key so one never passes for the other. Opaque to the browser; the
 * server keeps nothing per token.
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { createHmac, timingSafeEqual } from "node:crypto"

const mac = (key: Uint8Array, body: string) => createHmac("sha256", key).update(body).digest()

/** Byte strings compared in constant time (different lengths are simply unequal). */
export const sameBytes = (left: Uint8Array, right: Uint8Array) =>
  left.length === right.length && timingSafeEqual(left, right)

export const sign = (key: Uint8Array, payload: unknown): string => {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url")
  return `${body}.${mac(key, body).toString("base64url")}`
}

/** The payload when the signature holds and it has the expected shape; none otherwise. */
export const verify = <A, I>(key: Uint8Array, token: string, schema: Schema.Schema<A, I>): Option.Option<A> => {
  const [body, signature, ...rest] = token.split(".")
  if (body === undefined || signature === undefined || rest.length > 0) return Option.none()
  if (!sameBytes(Buffer.from(signature, "base64url"), mac(key, body))) return Option.none()
  try {
    return Schema.decodeUnknownOption(schema)(JSON.parse(Buffer.from(body, "base64url").toString("utf8")))
  } catch {
    return Option.none()
  }
}

/** Hex HMAC-SHA256 of `userId` with the connection's secret: what the shop's server computes as `userHash`. */
export const identityHash = (secret: string, userId: string) =>
  createHmac("sha256", secret).update(userId, "utf8").digest("hex")

export const identityHolds = (secret: string, userId: string, userHash: string) =>
  sameBytes(Buffer.from(identityHash(secret, userId), "hex"), Buffer.from(userHash, "hex"))
