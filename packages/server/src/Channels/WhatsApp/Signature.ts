/**
 * `X-Hub-Signature-256`: Meta signs every webhook delivery with the app
 * secret, `sha256=<hex HMAC-SHA256 of the raw body>`. Checked in constant time
 * before the body is parsed.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

export const header = "x-hub-signature-256"

export const sign = (appSecret: string, body: Uint8Array | string) =>
  `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`

export const verify = (appSecret: string, given: string | undefined, body: Uint8Array) => {
  if (given === undefined) return false
  const expected = Buffer.from(sign(appSecret, body))
  const actual = Buffer.from(given.trim().toLowerCase())
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}
