/** What a benchmark runs the service on: a free local port and a new, empty database. */
import { createRequire } from "node:module"
import * as net from "node:net"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type PgModule from "pg"

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../packages/server")
// `pg` is the server package's dependency, not hoisted to the root.
const pg: typeof PgModule = createRequire(path.join(serverDir, "package.json"))("pg")

/** A TCP port free on 127.0.0.1 at the moment of asking. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/**
 * Creates `<prefix>_<now>` on the Postgres server of `baseUrl`; its URL and how to drop it (connections to it are
 * closed by force).
 */
export const freshDatabase = async (baseUrl: string, prefix: string) => {
  const name = `${prefix}_${Date.now()}`
  const client = new pg.Client({ connectionString: baseUrl })
  await client.connect()
  await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`)
  await client.end()
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const admin = new pg.Client({ connectionString: baseUrl })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`)
      await admin.end()
    }
  }
}
