/**
 * The SDK and the CLI as they would be published: each package is built and
 * packed (`pnpm pack`), the tarballs are installed with npm into a project
 * outside the workspace, and from there a script type-checks and runs against
 * the real server through both SDK faces, and the `dastyar` bin answers.
 */
import { adminToken, TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { serverUrl } from "./support/Cli"

const packages = fileURLToPath(new URL("../../", import.meta.url))
const tsc = fileURLToPath(new URL("../../../node_modules/typescript/bin/tsc", import.meta.url))

interface Run {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

const run = (command: string, args: ReadonlyArray<string>, cwd: string, env: Record<string, string> = {}) =>
  Effect.async<Run>((resume) => {
    const child = execFile(
      command,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: 240_000 },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : -1
        resume(Effect.succeed({ exitCode, stdout, stderr }))
      }
    )
    return Effect.sync(() => child.kill())
  })

/** Runs and insists on exit code 0, showing the output otherwise. */
const succeed = (command: string, args: ReadonlyArray<string>, cwd: string, env?: Record<string, string>) =>
  Effect.flatMap(run(command, args, cwd, env), (result) =>
    result.exitCode === 0
      ? Effect.succeed(result)
      : Effect.dieMessage(`${command} ${args.join(" ")} exited ${result.exitCode}\n${result.stdout}\n${result.stderr}`))

const script = `
import { createDastyarClient, DastyarApiError, makeEffectClient } from "@dastyar/sdk"
import { FetchHttpClient } from "@effect/platform"
import * as Effect from "effect/Effect"

// The project installs no @types/node; the script needs only its arguments.
declare const process: { readonly argv: ReadonlyArray<string> }

const baseUrl: string = process.argv[2] ?? ""
const adminToken: string = process.argv[3] ?? ""
const client = createDastyarClient({ baseUrl, adminToken })
const account = await client.admin.createAccount({ name: "Packed shop" })
const refused = await client.admin.getAssistant("ast_missing").catch((error: unknown) => error)
const effectAccount = await Effect.runPromise(
  Effect.gen(function*() {
    const admin = yield* makeEffectClient({ baseUrl, token: adminToken })
    return yield* admin.admin.createAccount({ payload: { name: "Effect shop" } })
  }).pipe(Effect.provide(FetchHttpClient.layer))
)
console.log(JSON.stringify({
  promise: account.name,
  effect: effectAccount.name,
  refused: refused instanceof DastyarApiError ? refused.httpStatus : "not an api error"
}))
`

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    strict: true,
    outDir: "out",
    skipLibCheck: true,
    types: []
  },
  include: ["script.ts"]
}

layer(TestApp(), { excludeTestServices: true })("published packages", (it) => {
  it.effect(
    "pnpm pack tarballs install outside the workspace; a script uses the SDK; dastyar --version runs",
    () =>
      Effect.gen(function*() {
        const baseUrl = yield* serverUrl
        const project = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-packed-"))
        try {
          const tarballs: Array<string> = []
          // The CLI inlines domain and SDK, and the SDK depends on domain: build in that order.
          for (const name of ["domain", "sdk", "cli"]) {
            const dir = path.join(packages, name)
            yield* succeed("pnpm", ["run", "build"], dir)
            const packed = yield* succeed("pnpm", ["pack", "--pack-destination", project], dir)
            const tarball = packed.stdout.trim().split("\n").at(-1) ?? ""
            expect(tarball).toMatch(/\.tgz$/)
            tarballs.push(tarball)
          }
          const [, sdkTarball, cliTarball] = tarballs
          const sdkFiles = (yield* succeed("tar", ["tzf", sdkTarball ?? ""], project)).stdout
          expect(sdkFiles).toContain("package/dist/index.js")
          expect(sdkFiles).toContain("package/dist/lib/index.d.ts")
          expect(sdkFiles).toContain("package/README.md")
          const cliFiles = (yield* succeed("tar", ["tzf", cliTarball ?? ""], project)).stdout
          // The bin's entry and the chunks it loads on demand; nothing from the sources or the type build.
          const cliFileList = cliFiles.trim().split("\n").sort()
          expect(cliFileList.filter((file) => !/^package\/dist\/chunks\/[\w-]+\.js$/.test(file))).toEqual([
            "package/README.md",
            "package/dist/dastyar.js",
            "package/package.json"
          ])
          expect(cliFileList.length).toBeGreaterThan(3)

          fs.writeFileSync(
            path.join(project, "package.json"),
            JSON.stringify({ name: "shop", private: true, type: "module" })
          )
          yield* succeed("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], project)
          expect(fs.existsSync(path.join(project, "node_modules", "@dastyar", "sdk", "src"))).toBe(false)

          // The types ship and are enough to check a caller's script; tsc also compiles it for plain Node.
          fs.writeFileSync(path.join(project, "script.ts"), script)
          fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(tsconfig))
          yield* succeed(process.execPath, [tsc, "-p", "tsconfig.json"], project)
          const scriptRun = yield* succeed(process.execPath, [
            path.join(project, "out", "script.js"),
            baseUrl,
            adminToken
          ], project)
          expect(JSON.parse(scriptRun.stdout)).toEqual({ promise: "Packed shop", effect: "Effect shop", refused: 404 })

          const bin = path.join(project, "node_modules", ".bin", "dastyar")
          const version = yield* succeed(bin, ["--version"], project)
          expect(version.stdout.trim()).toBe("0.1.0")
          const created = yield* succeed(
            bin,
            ["admin", "accounts", "create", "--name", "From the bin", "--json"],
            project,
            {
              DASTYAR_BASE_URL: baseUrl,
              DASTYAR_ADMIN_TOKEN: adminToken
            }
          )
          expect(JSON.parse(created.stdout)).toMatchObject({ name: "From the bin" })
        } finally {
          fs.rmSync(project, { recursive: true, force: true })
        }
      }),
    600_000
  )
})
