/**
 * The widget's scripts (`packages/widget/dist`): `/widget.js`, the small
 * loader every shop's snippet names (revalidated after five minutes, so a new
 * release reaches pages soon), and `/widget/<name>.<hash>.js`, the widget itself
 * (cached for a year: its name changes with its content).
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/**
 * `packages/widget/dist`, beside this package. Found by walking up to `packages/`: the server runs from its
 * sources (`src/Channels/Web/`) or from its bundle (`dist/js/`), at different depths.
 */
export const widgetDir = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (path.basename(dir) !== "packages" && path.dirname(dir) !== dir) dir = path.dirname(dir)
  return path.join(dir, "widget", "dist")
})()

const javascript = "text/javascript; charset=utf-8"

const notBuilt = HttpServerResponse.text("/* the widget is not built: run `pnpm build` */", {
  status: 503,
  contentType: javascript
})

const read = (file: string) => Effect.promise(() => fs.readFile(path.join(widgetDir, file)).catch(() => undefined))

const loader = Effect.gen(function*() {
  const bytes = yield* read("widget.js")
  if (bytes === undefined) return notBuilt
  return HttpServerResponse.uint8Array(bytes, {
    contentType: javascript,
    headers: { "cache-control": "public, max-age=300" }
  })
})

const asset = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const name = new URL(request.url, "http://widget").pathname.replace(/^\/widget\//, "")
  // Only the built files' own names: no path, nothing else from the folder.
  if (!/^[a-z]+\.[0-9a-f]{8,}\.js$/.test(name)) return HttpServerResponse.empty({ status: 404 })
  const bytes = yield* read(name)
  if (bytes === undefined) return HttpServerResponse.empty({ status: 404 })
  return HttpServerResponse.uint8Array(bytes, {
    contentType: javascript,
    headers: { "cache-control": "public, max-age=31536000, immutable" }
  })
})

export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.all([router.get("/widget.js", loader), router.get("/widget/*", asset)], { discard: true })
)
