/**
 * `pnpm openapi`: writes the OpenAPI document of `DastyarApi` to
 * `packages/sdk/openapi.json` and its TypeScript types (openapi-typescript) to
 * `packages/sdk/src/generated/openapi.ts`, then lints the document with Redocly.
 *
 * `pnpm openapi:check` (`--check`) writes nothing: it fails if either committed
 * file differs from what would be generated, then lints the committed document.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const documentModule = path.join(root, "packages/sdk/scripts/OpenApiDocument.ts")
const outputs = {
  document: path.join(root, "packages/sdk/openapi.json"),
  types: path.join(root, "packages/sdk/src/generated/openapi.ts")
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/**
 * Loads the document builder by URL: the root has no dependency on the
 * workspace packages, so a static import would not resolve (see the module).
 */
const loadDocument = async (): Promise<Record<string, unknown>> => {
  const loaded: unknown = await import(pathToFileURL(documentModule).href)
  const build = isRecord(loaded) ? loaded.openApiDocument : undefined
  if (typeof build !== "function") throw new Error(`${documentModule} does not export openApiDocument()`)
  const document: unknown = build()
  if (!isRecord(document)) throw new Error("openApiDocument() did not return an object")
  return document
}

const generate = async () => {
  // Two-space JSON with a trailing newline, so the committed file diffs cleanly.
  const document = `${JSON.stringify(await loadDocument(), null, 2)}\n`
  const types = `${COMMENT_HEADER}${astToString(await openapiTS(document, { silent: true }))}`
  return { document, types }
}

const readIfExists = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined)

/** Runs `redocly lint` on the committed document with the root `redocly.yaml`; true when it reports no errors. */
const lint = () => {
  const bin = path.join(root, "node_modules/.bin", process.platform === "win32" ? "redocly.cmd" : "redocly")
  const result = spawnSync(
    bin,
    ["lint", path.relative(root, outputs.document), "--config", "redocly.yaml", "--format", "stylish"],
    {
      cwd: root,
      stdio: "inherit",
      // No telemetry or update checks from a build script.
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      shell: process.platform === "win32"
    }
  )
  if (result.error) throw result.error
  return result.status === 0
}

const main = async () => {
  const check = process.argv.includes("--check")
  const generated = await generate()
  const stale = Object.entries(outputs).filter(([kind, file]) =>
    readIfExists(file) !== (kind === "document" ? generated.document : generated.types)
  )
  if (check && stale.length > 0) {
    for (const [, file] of stale) console.error(`out of date: ${path.relative(root, file)}`)
    console.error("The OpenAPI document or its types differ from the domain: run pnpm openapi")
    return 1
  }
  if (!check) {
    fs.mkdirSync(path.dirname(outputs.types), { recursive: true })
    fs.writeFileSync(outputs.document, generated.document)
    fs.writeFileSync(outputs.types, generated.types)
    console.log(`wrote ${path.relative(root, outputs.document)} and ${path.relative(root, outputs.types)}`)
  } else {
    console.log("openapi.json and generated/openapi.ts are up to date")
  }
  if (!lint()) {
    console.error("Redocly found errors in packages/sdk/openapi.json")
    return 1
  }
  return 0
}

process.exitCode = await main()
