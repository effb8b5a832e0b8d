/**
 * Running the built `dastyar` command (`bin/dastyar.js`) as a subprocess
 * against the test server, the way a user runs it.
 */
import { HttpServer } from "@effect/platform"
import * as Effect from "effect/Effect"
import { execFile, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import { fileURLToPath } from "node:url"

const bin = fileURLToPath(new URL("../../bin/dastyar.js", import.meta.url))

export interface Run {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

/** The parent's environment without any `DASTYAR_*` setting, so only what a test passes counts. */
const cleanEnvironment = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("DASTYAR_")))

export const runCli = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  Effect.async<Run>((resume) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...cleanEnvironment(), ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        // `error` is set for any non-zero exit; its `code` is then the exit code.
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : -1
        resume(Effect.succeed({ exitCode, stdout, stderr }))
      }
    )
    return Effect.sync(() => child.kill())
  })

export interface FileRun {
  readonly exitCode: number
  readonly stderr: string
}

/**
 * Runs the command with its standard output going to `file` (not held by the test) and its heap capped at
 * `heapMb`, so a command holding more than that fails. Resident memory is no such measure: it varies from run to
 * run by more than a held export adds.
 */
export const runCliToFile = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>,
  file: string,
  heapMb: number
) =>
  Effect.async<FileRun>((resume) => {
    const out = fs.openSync(file, "w")
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, bin, ...args], {
      env: { ...cleanEnvironment(), ...env },
      stdio: ["ignore", out, "pipe"],
      timeout: 90_000
    })
    let stderr = ""
    child.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")))
    child.on("close", (code) => {
      fs.closeSync(out)
      resume(Effect.succeed({ exitCode: code ?? -1, stderr }))
    })
    return Effect.sync(() => child.kill())
  })

/** `http://127.0.0.1:<port>` of the test server. */
export const serverUrl = Effect.map(
  HttpServer.HttpServer,
  (server) =>
    server.address._tag === "TcpAddress" ? `http://127.0.0.1:${server.address.port}` : "http://unix-socket.invalid"
)

/** A loopback port with nothing listening on it (bound, then released). */
export const closedPort = Effect.async<number>((resume) => {
  const probe = net.createServer().listen(0, "127.0.0.1", () => {
    const address = probe.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    probe.close(() => resume(Effect.succeed(port)))
  })
})
