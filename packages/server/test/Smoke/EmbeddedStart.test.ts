/**
 * The newcomer's path: `pnpm start` on a clean data directory, no database
 * configured, prints a demo key and assistant; the key works at once and
 * survives a restart (the embedded database lives in the data directory).
 */
import { describe, expect, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"

const repoRoot = path.resolve(import.meta.dirname, "../../../..")

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()))
    })
  })

interface Started {
  readonly child: ChildProcess
  readonly output: () => string
}

/** Starts `pnpm start` and resolves once the server listens. */
const start = (dataDir: string, port: number) =>
  new Promise<Started>((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DASTYAR_DATA_DIR: dataDir, PORT: String(port) }
    delete env.DATABASE_URL
    delete env.DASTYAR_ADMIN_TOKEN
    const child = spawn("pnpm", ["start"], { cwd: repoRoot, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes("Listening on")) {
        clearTimeout(timer)
        resolve({ child, output: () => output })
      }
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", onData)
    child.on("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
  })

/** Whether any process of the group (pnpm and the server it started) is still running. */
const groupAlive = (pid: number) => {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Stops pnpm and the server and waits until both are gone: pnpm can exit while the server is still
 * closing the embedded database, and a second server opening that data directory then fails.
 */
const stop = async (started: Started) => {
  const pid = started.child.pid
  if (pid === undefined) return
  process.kill(-pid, "SIGTERM")
  while (groupAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 20))
}

const printed = (output: string, label: string) => {
  const match = new RegExp(`${label}:\\s+(\\S+)`).exec(output)
  if (match?.[1] === undefined) throw new Error(`"${label}" not printed:\n${output}`)
  return match[1]
}

describe("embedded mode", () => {
  it("pnpm start on a clean data dir prints a demo key that works at once and after a restart", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-smoke-"))
    const port = await freePort()
    try {
      const first = await start(dataDir, port)
      const key = printed(first.output(), "API key")
      const assistantId = printed(first.output(), "Assistant id")
      expect(fs.statSync(path.join(dataDir, "admin-token")).mode & 0o777).toBe(0o600)

      const listed = await fetch(`http://127.0.0.1:${port}/v1/assistants`, {
        headers: { authorization: `Bearer ${key}` }
      })
      expect(listed.status).toBe(200)
      expect(await listed.json()).toMatchObject({
        data: { count: 1, list: [{ id: assistantId, status: "active" }] },
        response: { status: "success" }
      })
      await stop(first)

      const second = await start(dataDir, port)
      expect(second.output()).not.toContain("API key:")
      const again = await fetch(`http://127.0.0.1:${port}/v1/assistants`, {
        headers: { authorization: `Bearer ${key}` }
      })
      expect(again.status).toBe(200)
      await stop(second)
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }, 240_000)
})
