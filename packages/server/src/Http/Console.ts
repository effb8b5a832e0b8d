/**
 * The console (`packages/console`, a single-page app) served as static files at
 * `/console`. It is only a client of the API: these routes serve its built files
 * and nothing else. Before `pnpm build:console` the page says how to build it.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { pageHeaders } from "./PageHeaders"

/** `packages/console/dist`, next to this package (the server runs from its sources). */
export const consoleDir = fileURLToPath(new URL("../../../console/dist", import.meta.url))

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json"
}

/** Every console response: its files are scripts and styles of its own, nothing inline. */
const headers = pageHeaders()

const notBuilt = HttpServerResponse.text(
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dastyar console</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>The console is not built yet</h1>
<p>Build it once with <code>pnpm build:console</code> in the repository, then reload this page.</p>
</body></html>`,
  { status: 503, contentType: "text/html; charset=utf-8", headers }
)

/** A file of the built console, or undefined when it does not exist (or lies outside the folder). */
const readBuilt = (dir: string, relative: string) =>
  Effect.promise(async () => {
    const file = path.resolve(dir, relative)
    if (!file.startsWith(dir + path.sep)) return undefined
    try {
      return { file, bytes: await fs.readFile(file) }
    } catch {
      return undefined
    }
  })

/** The handler of `/console` and `/console/*`, serving the files of `dir`. */
export const serveFrom = (dir: string) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const pathname = new URL(request.url, "http://console").pathname
    const relative = decodeURIComponent(pathname.replace(/^\/console\/?/, "")) || "index.html"
    const found = yield* readBuilt(dir, relative)
    if (found === undefined) {
      // Unknown paths show the app (it routes by the hash); without a build, how to make one.
      const index = yield* readBuilt(dir, "index.html")
      if (index === undefined) return notBuilt
      return HttpServerResponse.uint8Array(index.bytes, { contentType: contentTypes[".html"] ?? "text/html", headers })
    }
    const contentType = contentTypes[path.extname(found.file)] ?? "application/octet-stream"
    // Built assets have content hashes in their names; the page itself must be revalidated.
    const cacheControl = relative.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache"
    return HttpServerResponse.uint8Array(found.bytes, {
      contentType,
      headers: { ...headers, "cache-control": cacheControl }
    })
  })

const serve = serveFrom(consoleDir)

export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.all([router.get("/console", serve), router.get("/console/*", serve)], { discard: true })
)
