import { Documents, Envelope } from "@dastyar/domain"
import { TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { accountWithAssistant } from "./support/Account"
import { runCli, serverUrl } from "./support/Cli"

const parsed = <A, I>(schema: Schema.Schema<A, I>, stdout: string) =>
  Schema.decodeUnknownSync(Schema.parseJson(schema))(stdout)

/** A temporary folder, removed after the test. */
const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-cli-docs-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...Array(56).fill(0)])

/** The rows of the final table, split into cells (cells hold no double spaces). */
const rows = (stdout: string) => stdout.trimEnd().split("\n").map((line) => line.split(/ {2,}/))

layer(TestApp({ DASTYAR_RATE_LIMIT_PER_MINUTE: "100000" }), { excludeTestServices: true })("dastyar docs", (it) => {
  it.effect(
    "upload of a folder skips what the server would refuse, waits for ingest and ends with a table",
    () =>
      Effect.gen(function*() {
        const { assistantId, key } = yield* accountWithAssistant
        const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_API_KEY: key, DASTYAR_ASSISTANT: assistantId }
        const dir = yield* tempDir
        fs.mkdirSync(path.join(dir, "sub"))
        fs.writeFileSync(path.join(dir, "shipping.md"), "# Shipping\n\nOrders ship within two working days.")
        fs.writeFileSync(path.join(dir, "returns.txt"), "Returns are accepted within fourteen days of delivery.")
        fs.writeFileSync(path.join(dir, "sub", "warranty.txt"), "Every teapot has a two-year warranty.")
        fs.writeFileSync(path.join(dir, "sub", "tool.txt"), elf)
        fs.closeSync(fs.openSync(path.join(dir, "sub", "big.pdf"), "w"))
        fs.truncateSync(path.join(dir, "sub", "big.pdf"), 26 * 1024 * 1024)

        const upload = yield* runCli(["docs", "upload", dir, "--wait"], env)
        expect(upload.exitCode).toBe(0)
        const [header, ...body] = rows(upload.stdout)
        expect(header).toEqual(["file", "status", "chunks", "detail"])
        expect(body.map(([file, status]) => [path.relative(dir, file ?? ""), status])).toEqual([
          ["sub/big.pdf", "skipped"],
          ["sub/tool.txt", "skipped"],
          ["returns.txt", "ready"],
          ["shipping.md", "ready"],
          ["sub/warranty.txt", "ready"]
        ])
        expect(body[0]?.[3]).toBe("26.0 MB, over the 25 MB limit")
        expect(body[1]?.[3]).toBe("an executable (ELF)")
        // Without a terminal, progress is one line per change of each file, on stderr.
        const progress = upload.stderr.split("\n").filter((line) => line.includes("returns.txt"))
        expect(progress[0]).toMatch(/^\[###\.{9}\] .*returns\.txt {2}uploading$/)
        expect(progress.at(-1)).toMatch(/^\[#{12}\] .*returns\.txt {2}ready: (1 chunk|\d+ chunks)$/)

        const listed = yield* runCli(["docs", "list", "--json"], env)
        const documents = parsed(Envelope.ListOf(Documents.Document), listed.stdout)
        expect(documents.list.map((document) => document.path).sort()).toEqual([
          "returns.txt",
          "shipping.md",
          "warranty.txt"
        ])

        const again = yield* runCli(["docs", "upload", path.join(dir, "returns.txt"), "--json"], env)
        expect(again.exitCode).toBe(0)
        const [queued] = parsed(
          Schema.Struct({ list: Schema.Array(Schema.Struct({ job: Schema.NullOr(Documents.DocumentIngestJob) })) }),
          again.stdout
        ).list
        expect(queued?.job).toMatchObject({ kind: "replace", path: "returns.txt" })
        const job = yield* runCli(["docs", "job", queued?.job?.id ?? ""], env)
        expect(job.exitCode).toBe(0)
        expect(job.stdout).toMatch(/^kind: +replace$/m)
        const jobs = yield* runCli(["docs", "jobs", "--json"], env)
        expect(jobs).toMatchObject({ exitCode: 0, stderr: "" })
        const jobList = parsed(Envelope.ListOf(Documents.DocumentIngestJob), jobs.stdout)
        expect(jobList.list[0]?.id).toBe(queued?.job?.id)
        expect(jobList.count).toBe(4)
        const failedJobs = yield* runCli(["docs", "jobs", "--status", "failed"], env)
        expect(failedJobs).toEqual({ exitCode: 0, stdout: "No ingest jobs.\n", stderr: "" })

        const removed = yield* runCli(["docs", "delete", ...documents.list.map((document) => document.fileId)], env)
        expect(removed).toEqual({
          exitCode: 0,
          stdout: "Deleted 3 documents (ids that were not documents are ignored).\n",
          stderr: ""
        })
      }).pipe(Effect.scoped),
    300_000
  )

  it.effect(
    "a file the server refuses fails only itself: the others of its request are sent; exit 1",
    () =>
      Effect.gen(function*() {
        const { assistantId, key } = yield* accountWithAssistant
        const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_API_KEY: key, DASTYAR_ASSISTANT: assistantId }
        const dir = yield* tempDir
        // An OLE compound file looks like a legacy .doc to the CLI; the server finds no Word stream in it.
        const ole = Buffer.alloc(4096)
        Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole)
        fs.writeFileSync(path.join(dir, "fake.doc"), ole)
        fs.writeFileSync(path.join(dir, "notes.txt"), "Gift wrapping is free.")

        const upload = yield* runCli(["docs", "upload", dir], env)
        expect(upload.exitCode).toBe(1)
        const [, ...body] = rows(upload.stdout)
        expect(body.map(([file, status]) => [path.basename(file ?? ""), status])).toEqual([["fake.doc", "refused"], [
          "notes.txt",
          "queued"
        ]])
        expect(upload.stderr).toMatch(/^error: 1 of 2 files failed or were refused$/m)
      }).pipe(Effect.scoped),
    240_000
  )

  it.effect("a bad folder id or missing path is a usage error before any request", () =>
    Effect.gen(function*() {
      const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_API_KEY: "any", DASTYAR_ASSISTANT: "any" }
      const [folder, missing] = yield* Effect.all([
        runCli(["docs", "upload", ".", "--folder", "NOT-HEX"], env),
        runCli(["docs", "upload", "/no/such/path"], env)
      ], { concurrency: 2 })
      expect(folder).toEqual({
        exitCode: 2,
        stdout: "",
        stderr: "error: --folder must be 32 lowercase hexadecimal characters\n"
      })
      expect(missing.exitCode).toBe(2)
      expect(missing.stderr).toMatch(/^error: cannot read the files to upload: ENOENT/)
    }), 60_000)
})
