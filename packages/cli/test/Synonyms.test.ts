import { Envelope, Synonyms } from "@dastyar/domain"
import { TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { accountWithAssistant } from "./support/Account"
import { runCli, serverUrl } from "./support/Cli"

layer(TestApp(), { excludeTestServices: true })("dastyar synonyms", (it) => {
  it.effect("add a multi-way set and a one-way rule, list them, replace from a file, delete one", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* accountWithAssistant
      const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_API_KEY: key, DASTYAR_ASSISTANT: assistantId }
      const multi = yield* runCli(["synonyms", "add", "گوشی", "موبایل", "تلفن همراه", "phone", "--json"], env)
      expect(multi.exitCode).toBe(0)
      const oneWay = yield* runCli(["synonyms", "add", "phone", "--root", "iphone"], env)
      expect(oneWay.stdout).toMatch(/^Added syn_\w+: iphone → phone/)
      const listed = yield* runCli(["synonyms", "list"], env)
      expect(listed.stdout).toContain("گوشی, موبایل, تلفن همراه, phone")
      expect(listed.stdout).toContain("(multi-way)")
      const single = yield* runCli(["synonyms", "add", "sofa"], env)
      expect(single.exitCode).toBe(2)

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-cli-synonyms-"))
      const file = path.join(dir, "synonyms.json")
      fs.writeFileSync(
        file,
        JSON.stringify([{ synonyms: ["sofa", "couch"] }, { root: "tv", synonyms: ["television"] }])
      )
      const replaced = yield* runCli(["synonyms", "replace", file, "--json"], env)
      fs.rmSync(dir, { recursive: true, force: true })
      const { list } = Schema.decodeUnknownSync(Schema.parseJson(Envelope.ListOf(Synonyms.Synonym)))(replaced.stdout)
      expect(list.map((set) => set.root)).toEqual([null, "tv"])
      const id = list[0]?.id ?? ""
      expect((yield* runCli(["synonyms", "delete", id], env)).stdout.trim()).toBe(`Deleted ${id}.`)
      expect((yield* runCli(["synonyms", "delete", id], env)).exitCode).toBe(1)
      expect((yield* runCli(["synonyms", "list"], env)).stdout).not.toContain("couch")
    }))
})
