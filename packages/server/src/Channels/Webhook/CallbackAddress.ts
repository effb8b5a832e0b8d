/**
 * Where a webhook connection may send its answers. A `callbackUrl` chosen by
 * whoever holds the operator token must not turn the server into a proxy for
 * its own network: loopback, link-local (the cloud metadata endpoint among
 * them), private, unspecified, multicast and reserved addresses are refused,
 * at creation and again at every delivery after DNS resolution. The socket
 * connects to the very address that was checked (the lookup below is the
 * connection's own), so a name that resolves differently the second time
 * (DNS rebinding) gains nothing. `DASTYAR_WEBHOOK_ALLOW_PRIVATE` allows
 * private networks and loopback, for integrations inside the operator's own
 * network; link-local, unspecified, multicast and reserved stay refused.
 */
import { Channels } from "@dastyar/domain"
import { NodeHttpClient } from "@effect/platform-node"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as dns from "node:dns"
import type { LookupFunction } from "node:net"
import * as net from "node:net"
import { AppConfig } from "../../Config"

const blockList = (ranges: ReadonlyArray<readonly [string, number, "ipv4" | "ipv6"]>) => {
  const list = new net.BlockList()
  for (const [address, prefix, family] of ranges) list.addSubnet(address, prefix, family)
  return list
}

/** Never reachable from a callback. */
const forbidden = blockList([
  ["0.0.0.0", 8, "ipv4"], // unspecified, "this network"
  ["169.254.0.0", 16, "ipv4"], // link-local, cloud metadata
  ["224.0.0.0", 4, "ipv4"], // multicast
  ["240.0.0.0", 4, "ipv4"], // reserved and broadcast
  ["::", 128, "ipv6"], // unspecified
  ["fe80::", 10, "ipv6"], // link-local
  ["ff00::", 8, "ipv6"] // multicast
])

/** Reachable only with `DASTYAR_WEBHOOK_ALLOW_PRIVATE`. */
const privateRanges = blockList([
  ["127.0.0.0", 8, "ipv4"], // loopback
  ["10.0.0.0", 8, "ipv4"],
  ["172.16.0.0", 12, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["100.64.0.0", 10, "ipv4"], // carrier-grade NAT
  ["::1", 128, "ipv6"], // loopback
  ["fc00::", 7, "ipv6"] // unique local
])

/** Whether a callback may connect to `address` (an IPv4 or IPv6 literal). */
export const allowedAddress = (address: string, allowPrivate: boolean): boolean => {
  const family = net.isIP(address)
  if (family === 0) return false
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address it carries.
  const mapped = family === 6 ? /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] : undefined
  if (mapped !== undefined) return allowedAddress(mapped, allowPrivate)
  const type = family === 4 ? "ipv4" : "ipv6"
  if (forbidden.check(address, type)) return false
  return allowPrivate || !privateRanges.check(address, type)
}

const refused = (hostname: string) =>
  Object.assign(new Error(`callback host ${hostname} resolves to an address webhooks may not reach`), {
    code: "ECALLBACKREFUSED"
  })

/**
 * A `lookup` for the delivery socket: resolves the name, refuses it if any of its addresses is not allowed,
 * and hands the socket the first one, so the address connected to is the address checked.
 */
const guardedLookup = (allowPrivate: boolean): LookupFunction => (hostname, options, callback) =>
  dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
    if (error !== null) return callback(error, "", 0)
    const first = addresses[0]
    if (first === undefined || !addresses.every((entry) => allowedAddress(entry.address, allowPrivate))) {
      return callback(refused(hostname), "", 0)
    }
    // With `all` (Node's happy eyeballs asks for it) the callback takes the list, else one address.
    if (options.all === true) return callback(null, [first])
    return callback(null, first.address, first.family)
  })

/** The URL's host as an address literal, without IPv6 brackets; none when it is a name. */
const literalHost = (url: URL) => {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1")
  return net.isIP(host) === 0 ? undefined : host
}

/** Refuses a callback URL whose host is, or resolves to, an address webhooks may not reach. */
export const checkCallbackUrl = (callbackUrl: string, allowPrivate: boolean) =>
  Effect.gen(function*() {
    const url = yield* Effect.try({ try: () => new URL(callbackUrl), catch: () => new Channels.CallbackUrlRefused() })
    const literal = literalHost(url)
    const addresses = literal !== undefined
      ? [literal]
      : yield* Effect.tryPromise({
        try: () => dns.promises.lookup(url.hostname, { all: true }),
        catch: () => new Channels.CallbackUrlRefused()
      }).pipe(Effect.map((entries) => entries.map((entry) => entry.address)))
    if (addresses.length === 0 || !addresses.every((address) => allowedAddress(address, allowPrivate))) {
      return yield* new Channels.CallbackUrlRefused()
    }
  })

/**
 * The client deliveries go through: its sockets resolve names through `guardedLookup`. A literal address
 * never reaches a lookup, so the driver checks the URL (`checkCallbackUrl`) before each delivery as well.
 */
export const clientLayer = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    NodeHttpClient.layerWithoutAgent.pipe(
      Layer.provide(NodeHttpClient.makeAgentLayer({ lookup: guardedLookup(config.webhookAllowPrivate) }))
    ))
)
