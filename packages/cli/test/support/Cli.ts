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

/** Prints the process's peak resident memory (kB) as the last line of standard error when it exits. */
const peakMemoryProbe = new URL("./PeakMemory.mjs", import.meta.url).href

export interface FileRun {
  readonly exitCode: number
  readonly stderr: string
  /** The command's peak resident memory, in bytes. */
  readonly peakRss: number
}

/**
 * Runs the command with its standard output going to `file` (not held by the test), measuring its peak memory.
 * Node's young generation is kept small, so the peak shows what is held rather than garbage not yet collected.
 */
export const runCliToFile = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>>,
  file: string
) =>
  Effect.async<FileRun>((resume) => {
    const out = fs.openSync(file, "w")
    const child = spawn(process.execPath, ["--max-semi-space-size=1", "--import", peakMemoryProbe, bin, ...args], {
      env: { ...cleanEnvironment(), ...env },
      stdio: ["ignore", out, "pipe"],
      timeout: 90_000
    })
    let stderr = ""
    child.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")))
    child.on("close", (code) => {
      fs.closeSync(out)
      const peak = /peak-rss-kb (\d+)\s*$/.exec(stderr)
      resume(Effect.succeed({ exitCode: code ?? -1, stderr, peakRss: Number(peak?.[1] ?? Number.NaN) * 1024 }))
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
