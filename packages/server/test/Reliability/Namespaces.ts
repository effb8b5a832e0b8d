/**
 * Hosts for the multi-node test on one machine: Linux network namespaces,
 * each joined to a bridge in the root namespace by a veth pair and holding
 * its own address, so that each service instance has an address of its own
 * and reaches Postgres and Redis over a network, not its loopback. The local
 * Postgres listens on loopback only, so the bridge's address carries small
 * TCP relays to it (and to the replica). Everything made here is removed by
 * the scope's finalizer, and once more on process exit should the finalizer
 * not run.
 */
import * as Effect from "effect/Effect"
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process"
import * as net from "node:net"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..")

const ip = (...args: ReadonlyArray<string>) => execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] })

/**
 * Why namespaces cannot be made here, or undefined when they can: tries to add and delete one (needs root,
 * or CAP_SYS_ADMIN and CAP_NET_ADMIN, and the `ip` tool).
 */
export const namespacesUnavailable = (): string | undefined => {
  const probe = `dnt-probe-${process.pid}`
  const added = spawnSync("ip", ["netns", "add", probe], { encoding: "utf8" })
  if (added.error !== undefined) return `\`ip\` cannot be run (${added.error.message})`
  if (added.status !== 0) return `\`ip netns add\` failed: ${added.stderr.trim()}`
  spawnSync("ip", ["netns", "delete", probe])
  return undefined
}

export interface Topology {
  /** The bridge's address in the root namespace, where the relays and Redis listen. */
  readonly gateway: string
  /** One address per namespace. */
  readonly hosts: ReadonlyArray<{ readonly namespace: string; readonly address: string }>
}

/**
 * A bridge and `count` namespaces on 10.231.N.0/24 (N from the process id, so parallel runs do not collide),
 * removed when the scope closes.
 */
export const topology = (count: number) => {
  const id = process.pid % 10_000
  const subnet = `10.231.${process.pid % 200}`
  const bridge = `dnt${id}br`
  const namespaces = Array.from({ length: count }, (_, i) => `dnt${id}n${i}`)
  const remove = () => {
    for (const namespace of namespaces) spawnSync("ip", ["netns", "delete", namespace])
    spawnSync("ip", ["link", "delete", bridge])
  }
  const onExit = () => remove()
  return Effect.acquireRelease(
    Effect.sync((): Topology => {
      process.once("exit", onExit)
      remove()
      ip("link", "add", bridge, "type", "bridge")
      ip("addr", "add", `${subnet}.1/24`, "dev", bridge)
      ip("link", "set", bridge, "up")
      const hosts = namespaces.map((namespace, i) => {
        const address = `${subnet}.${10 + i}`
        const outside = `dnt${id}v${i}`
        ip("netns", "add", namespace)
        ip("link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", namespace)
        ip("link", "set", outside, "master", bridge)
        ip("link", "set", outside, "up")
        ip("-n", namespace, "addr", "add", `${address}/24`, "dev", "eth0")
        ip("-n", namespace, "link", "set", "eth0", "up")
        ip("-n", namespace, "link", "set", "lo", "up")
        ip("-n", namespace, "route", "add", "default", "via", `${subnet}.1`)
        return { namespace, address }
      })
      return { gateway: `${subnet}.1`, hosts }
    }),
    () =>
      Effect.sync(() => {
        remove()
        process.removeListener("exit", onExit)
      })
  )
}

/** A TCP relay from `host`:(a free port) to 127.0.0.1:`targetPort`, closed with the scope; its port. */
export const relay = (host: string, targetPort: number) =>
  Effect.acquireRelease(
    Effect.async<{ readonly server: net.Server; readonly port: number; readonly sockets: Set<net.Socket> }>(
      (resume) => {
        const sockets = new Set<net.Socket>()
        const server = net.createServer((inbound) => {
          const outbound = net.connect(targetPort, "127.0.0.1")
          for (const socket of [inbound, outbound]) {
            sockets.add(socket)
            socket.on("close", () => sockets.delete(socket))
            socket.on("error", () => {
              inbound.destroy()
              outbound.destroy()
            })
          }
          inbound.pipe(outbound).pipe(inbound)
        })
        server.listen(0, host, () => {
          const address = server.address()
          resume(Effect.succeed({ server, port: typeof address === "object" && address ? address.port : 0, sockets }))
        })
      }
    ),
    ({ server, sockets }) =>
      Effect.async<void>((resume) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ port }) => port))

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/**
 * A Redis of its own on `host` (no persistence), stopped with the scope; its URL. With a password, as Redis
 * takes connections from other hosts only with one (protected mode) or with its protection off.
 */
export const redis = (host: string, port: number, password: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const args = [
        "--bind",
        host,
        "--port",
        String(port),
        "--requirepass",
        password,
        "--save",
        "",
        "--appendonly",
        "no"
      ]
      const child = spawn("redis-server", args, { stdio: "ignore" })
      const deadline = Date.now() + 20_000
      for (;;) {
        const up = yield* Effect.promise(() =>
          new Promise<boolean>((resolve) => {
            const socket = net.connect(port, host)
            socket.once("connect", () => (socket.end(), resolve(true)))
            socket.once("error", () => resolve(false))
          })
        )
        if (up) return child
        if (exited(child) || Date.now() > deadline) return yield* Effect.dieMessage("redis-server did not start")
        yield* Effect.sleep("50 millis")
      }
    }),
    (child) =>
      Effect.sync(() => {
        if (!exited(child)) child.kill("SIGKILL")
      })
  ).pipe(Effect.map(() => `redis://:${encodeURIComponent(password)}@${host}:${port}/0`))

/**
 * A streaming replica of the local Postgres (`scripts/replica.sh`, its own port and directory), removed with the
 * scope; its port.
 */
export const replica = (port: number) => {
  const env = { ...process.env, REPLICA_PORT: String(port), REPLICA_DIR: `/tmp/dastyar-netns-replica-${port}` }
  const script = path.join(repoRoot, "scripts/replica.sh")
  return Effect.acquireRelease(
    Effect.sync(() => {
      execFileSync(script, ["start"], { env, stdio: ["ignore", "ignore", "pipe"], timeout: 600_000 })
      return port
    }),
    () => Effect.sync(() => void spawnSync(script, ["remove"], { env, stdio: "ignore" }))
  )
}
