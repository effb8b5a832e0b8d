import { Content, Envelope } from "@dastyar/domain"
import { adminToken, TestApp } from "@dastyar/server/Testing"
import { HttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { runCli, serverUrl } from "./support/Cli"

const PublishResult = Schema.Struct({
  list: Schema.Array(
    Schema.Struct({ file: Schema.String, type: Schema.String, slug: Schema.String, outcome: Schema.String })
  ),
  created: Schema.Int,
  updated: Schema.Int,
  unchanged: Schema.Int
})
const parsed = <A, I>(schema: Schema.Schema<A, I>, stdout: string) =>
  Schema.decodeUnknownSync(Schema.parseJson(schema))(stdout)

const write = (root: string, file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
  fs.writeFileSync(path.join(root, file), text)
}

const publicStatus = (url: string) =>
  Effect.flatMap(HttpClient.HttpClient, (client) => client.get(url)).pipe(
    Effect.map((response) => response.status),
    Effect.scoped,
    Effect.orDie
  )

layer(TestApp(), { excludeTestServices: true })("dastyar admin content", (it) => {
  it.effect(
    "publish sends a folder once: created, then unchanged; list shows drafts too",
    () =>
      Effect.gen(function*() {
        const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_ADMIN_TOKEN: adminToken }
        const folder = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-content-"))
        write(
          folder,
          "blog/hello.md",
          "---\ntitle: Hello\nlanguage: en\ncategory: News\ntags: [intro]\npublishedAt: 2026-11-02\n---\n\n# Hello\n\nFirst post.\n"
        )
        write(folder, "guides/setup.md", "---\ntitle: راه‌اندازی\nslug: setup-fa\nlanguage: fa\n---\nمتن راهنما\n")
        write(folder, "guides/later.md", "---\ntitle: Later\nlanguage: en\nstatus: draft\n---\nNot yet.\n")

        const first = yield* runCli(["admin", "content", "publish", folder, "--json"], env)
        expect(first).toMatchObject({ exitCode: 0, stderr: "" })
        const created = parsed(PublishResult, first.stdout)
        expect(created).toMatchObject({ created: 3, updated: 0, unchanged: 0 })
        expect(created.list.map((item) => `${item.type}/${item.slug}`)).toEqual([
          "blog/hello",
          "guides/later",
          "guides/setup-fa"
        ])
        expect(yield* publicStatus("/v1/content/blog/articles/hello")).toBe(200)
        expect(yield* publicStatus("/v1/content/guides/articles/later")).toBe(404)

        // Nothing changed: nothing is rewritten.
        const again = yield* runCli(["admin", "content", "publish", folder, "--json"], env)
        expect(parsed(PublishResult, again.stdout)).toMatchObject({ created: 0, updated: 0, unchanged: 3 })

        const listRun = yield* runCli(["admin", "content", "list", "--type", "guides", "--json"], env)
        const listed = parsed(Envelope.ListOf(Content.AdminArticleSummary), listRun.stdout)
        expect(listed.list.map((article) => [article.slug, article.status]).sort()).toEqual([["later", "draft"], [
          "setup-fa",
          "published"
        ]])
        fs.rmSync(folder, { recursive: true, force: true })
      }),
    { timeout: 180_000 }
  )

  it.effect(
    "a changed file is updated; unpublish hides an article; a broken folder publishes nothing",
    () =>
      Effect.gen(function*() {
        const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_ADMIN_TOKEN: adminToken }
        const folder = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-content-"))
        write(folder, "news.md", "---\ntitle: News\nlanguage: en\n---\nToday.\n")
        yield* runCli(["admin", "content", "publish", folder, "--type", "changelog"], env)
        write(folder, "news.md", "---\ntitle: News again\nlanguage: en\n---\nToday.\n")
        const human = yield* runCli(["admin", "content", "publish", folder, "--type", "changelog"], env)
        expect(human.exitCode).toBe(0)
        expect(human.stdout).toContain("updated   changelog/news  (news.md)")
        expect(human.stdout).toContain("0 created, 1 updated, 0 unchanged")

        const unpublish = yield* runCli(["admin", "content", "unpublish", "changelog", "news"], env)
        expect(unpublish).toMatchObject({ exitCode: 0, stdout: "changelog/news is now a draft.\n" })
        expect(yield* publicStatus("/v1/content/changelog/articles/news")).toBe(404)

        // One broken file: every problem is reported and nothing is written.
        write(folder, "blog/broken.md", "---\nlanguage: english\n---\nNo title.\n")
        write(folder, "blog/new.md", "---\ntitle: New\nlanguage: en\n---\nNew.\n")
        const broken = yield* runCli(["admin", "content", "publish", folder], env)
        expect(broken.exitCode).toBe(2)
        expect(broken.stderr).toContain("broken.md: title: is required")
        expect(broken.stderr).toContain("language: must be a language tag")
        expect(broken.stderr).toContain("news.md: type: is required")
        expect(yield* publicStatus("/v1/content/blog/articles/new")).toBe(404)
        fs.rmSync(folder, { recursive: true, force: true })
      }),
    { timeout: 180_000 }
  )
})
