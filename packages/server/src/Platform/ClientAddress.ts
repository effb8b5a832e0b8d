/**
 * The client's IP address: the socket's peer, or, behind `DASTYAR_TRUST_PROXY`
 * proxy hops, the address the outermost trusted proxy saw. Entries a client
 * writes into `X-Forwarded-For` itself sit further left and are never used.
 */
import { HttpServerRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AppConfig } from "../Config"

/** Picks the client from the socket address and `X-Forwarded-For`, trusting `hops` proxies. */
export const clientAddressOf = (
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  hops: number
): string => {
  const socket = normalize(socketAddress ?? "unknown")
  if (hops === 0 || forwardedFor === undefined) return socket
  const forwarded = forwardedFor.split(",").map((entry) => normalize(entry.trim())).filter((entry) => entry !== "")
  // Nearest last: each proxy appends the address it received the request from.
  const chain = [...forwarded, socket]
  return chain[Math.max(0, chain.length - 1 - hops)] ?? socket
}

/** `::ffff:1.2.3.4` (IPv4 on an IPv6 socket) is `1.2.3.4`. */
const normalize = (address: string) => address.startsWith("::ffff:") ? address.slice(7) : address

export const clientAddress = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { trustProxy } = yield* AppConfig
  return clientAddressOf(Option.getOrUndefined(request.remoteAddress), request.headers["x-forwarded-for"], trustProxy)
})
