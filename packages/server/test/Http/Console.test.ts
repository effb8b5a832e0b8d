import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { serveFrom } from "../../src/Http/Console"

/** What the console route answers for a path, served from `dir`. */
const get = (dir: string, pathname: string) =>
  serveFrom(dir).pipe(
    Effect.provideService(
      HttpServerRequest.HttpServerRequest,
      HttpServerRequest.fromWeb(new Request(`http://localhost${pathname}`))
    ),
    Effect.flatMap((response) =>
      Effect.promise(async () => {
        const web = HttpServerResponse.toWeb(response)
        return { status: web.status, headers: web.headers, body: await web.text() }
      })
    )
  )

const withDirs = <A, E>(body: (dist: string) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-console-"))),
    (root) => {
      fs.writeFileSync(path.join(root, "secret.txt"), "not for the web")
      const dist = path.join(root, "dist")
      fs.mkdirSync(dist)
      return body(dist)
    },
    (root) => Effect.sync(() => fs.rmSync(root, { recursive: true, force: true }))
  )

describe("console route", () => {
  it.effect("before a build, /console says how to build it", () =>
    withDirs((dist) =>
      Effect.gen(function*() {
        const answer = yield* get(dist, "/console")
        expect(answer.status).toBe(503)
        expect(answer.headers.get("content-type")).toContain("text/html")
        expect(answer.body).toContain("pnpm build:console")
      })
    ))

  it.effect("serves the built files, the page for any other path, and nothing outside the folder", () =>
    withDirs((dist) =>
      Effect.gen(function*() {
        fs.mkdirSync(path.join(dist, "assets"))
        fs.writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>console</title>")
        fs.writeFileSync(path.join(dist, "assets", "app-1234.js"), "console.log(1)")

        const page = yield* get(dist, "/console/")
        expect(page).toMatchObject({ status: 200, body: "<!doctype html><title>console</title>" })
        expect(page.headers.get("cache-control")).toBe("no-cache")

        const script = yield* get(dist, "/console/assets/app-1234.js")
        expect(script.body).toBe("console.log(1)")
        expect(script.headers.get("content-type")).toContain("text/javascript")
        expect(script.headers.get("cache-control")).toContain("immutable")

        for (
          const escape of [
            "/console/..%2Fsecret.txt",
            "/console/%2e%2e/secret.txt",
            "/console/assets/..%2F..%2Fsecret.txt"
          ]
        ) {
          const answer = yield* get(dist, escape)
          expect(answer.body).not.toContain("not for the web")
        }
        expect((yield* get(dist, "/console/no/such/view")).body).toContain("<title>console</title>")
      })
    ))
})
