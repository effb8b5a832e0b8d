/**
 * Signatures of the `webhook` driver, the same in both directions:
 * `X-Dastyar-Timestamp: <Unix seconds>` and
 * `X-Dastyar-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`.
 * A request is accepted within five minutes of its timestamp.
 */
import { Channels } from "@dastyar/domain"
import { createHmac, timingSafeEqual } from "node:crypto"

const digest = (secret: string, timestamp: string, body: Uint8Array | string) =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest()

export const sign = (secret: string, timestamp: number, body: Uint8Array | string) =>
  `sha256=${digest(secret, String(timestamp), body).toString("hex")}`

/** The headers to send with `body`. */
export const signedHeaders = (secret: string, body: string, now: Date) => {
  const timestamp = Math.floor(now.getTime() / 1000)
  return {
    [Channels.signatureHeaders.timestamp]: String(timestamp),
    [Channels.signatureHeaders.signature]: sign(secret, timestamp, body)
  }
}

/** The hex digest a signature header carries, lower-case (the header may use either case); none if malformed. */
export const signatureDigest = (signature: string): string | undefined =>
  /^sha256=([0-9a-f]{64})$/i.exec(signature.trim())?.[1]?.toLowerCase()

/** True when the signature matches (compared in constant time) and the timestamp is fresh. */
export const verify = (
  secret: string,
  headers: { readonly timestamp: string | undefined; readonly signature: string | undefined },
  body: Uint8Array,
  now: Date
): boolean => {
  const { signature, timestamp } = headers
  if (timestamp === undefined || signature === undefined || !/^\d{1,12}$/.test(timestamp)) return false
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > Channels.signatureToleranceSeconds) return false
  const hex = signatureDigest(signature)
  if (hex === undefined) return false
  const given = Buffer.from(hex, "hex")
  return timingSafeEqual(given, digest(secret, timestamp, body))
}
