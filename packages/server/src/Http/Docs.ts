/**
 * The interactive API reference at `/docs`: the page of `HttpApiScalar.layer`
 * (the OpenAPI document and the Scalar script, inline: no CDN), built on the
 * first request instead of at start: the script is megabytes of text, and
 * held from start as source, string and page it would cost every idle server
 * memory.
 */
import { HttpApi, HttpApiBuilder, type HttpApiScalar, HttpServerResponse, OpenApi } from "@effect/platform"
import * as Effect from "effect/Effect"
import { createRequire } from "node:module"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { pageHeaders, scriptHash } from "./PageHeaders"

const require = createRequire(import.meta.url)

/**
 * The Scalar bundle `@effect/platform` ships (and its `HttpApiScalar.layer` inlines), imported from
 * its own file: bundled into the server, its text would be in memory from start.
 */
const scalarScript = async (): Promise<string> => {
  const platformDir = path.dirname(require.resolve("@effect/platform/package.json"))
  const file = pathToFileURL(path.join(platformDir, "dist/esm/internal/httpApiScalar.js")).href
  const module: { readonly javascript?: unknown } = await import(file)
  if (typeof module.javascript !== "string") throw new Error(`${file} no longer exports the Scalar script`)
  return module.javascript
}

/** JSON inside a `<script>` block: `<` and the JS line terminators escaped (as the platform does). */
const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, "\\u003c").replace(
    /[\u2028\u2029]/g,
    (c) => c === "\u2028" ? "\\u2028" : "\\u2029"
  )

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(
    /'/g,
    "&#39;"
  )

/** The page, and the headers that allow its two inline scripts (by hash) and nothing else. */
const page = (spec: OpenApi.OpenAPISpec, scalar: HttpApiScalar.ScalarConfig, script: string) => {
  const configure = `
      document.getElementById('api-reference').dataset.configuration = JSON.stringify(${
    scriptJson({ _integration: "html", ...scalar })
  })
    `
  const description = spec.info.description === undefined || spec.info.description === ""
    ? ""
    : `<meta name="description" content="${escapeHtml(spec.info.description)}"/>
    <meta name="og:description" content="${escapeHtml(spec.info.description)}"/>`
  const html = `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(spec.info.title)}</title>
    ${description}
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" type="application/json">
      ${scriptJson(spec)}
    </script>
    <script>${configure}</script>
    <script>${script}</script>
  </body>
</html>`
  return HttpServerResponse.html(html).pipe(
    HttpServerResponse.setHeaders(pageHeaders([scriptHash(configure), scriptHash(script)]))
  )
}

export const layer = (options: { readonly path: `/${string}`; readonly scalar: HttpApiScalar.ScalarConfig }) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const { api } = yield* HttpApi.Api
      // Built once, on the first request; the same response (and so its compressed form) is reused.
      let response: Promise<HttpServerResponse.HttpServerResponse> | undefined
      const build = () => (response ??= scalarScript().then((script) =>
        page(OpenApi.fromApi(api), options.scalar, script)
      ))
      yield* router.get(options.path, Effect.promise(build))
    })
  )
