/**
 * The OpenAPI document of `DastyarApi`, as committed in `packages/sdk/openapi.json`.
 *
 * It lives in this package (not in `scripts/`) because the repo root does not
 * depend on `@dastyar/domain` or `@effect/platform`, so only a workspace
 * package can import them; `scripts/openapi.ts` loads this module by URL.
 */
import { DastyarApi } from "@dastyar/domain"
import { OpenApi } from "@effect/platform"

/** The bearer schemes the domain's middlewares declare: API key (`/v1`) and operator token (`/admin/v1`). */
const bearerSchemes = ["bearer", "adminToken"] as const

/**
 * Paths are relative to the deployment's base URL (the spec's `{base_url}`);
 * a server entry says so, and Redocly's `no-empty-servers` rule requires one.
 * Used only while the domain annotates no `servers` of its own.
 */
const defaultServers: Array<OpenApi.OpenAPISpecServer> = [{
  url: "{baseUrl}",
  description: "A Dastyar deployment",
  variables: { baseUrl: { default: "http://localhost:3000", description: "Scheme, host and port of the deployment" } }
}]

/** Fails loudly if a platform upgrade changes what the rest of the toolchain relies on. */
const assertShape = (spec: OpenApi.OpenAPISpec) => {
  // Checked at runtime: the domain's `transform` annotation may rewrite the document.
  if (spec.openapi !== "3.1.0") {
    throw new Error(`expected OpenAPI 3.1.0, OpenApi.fromApi emitted ${String(spec.openapi)}`)
  }
  for (const name of bearerSchemes) {
    const scheme = spec.components.securitySchemes[name]
    if (scheme?.type !== "http" || scheme.scheme !== "bearer") {
      throw new Error(`security scheme "${name}" is missing or not an HTTP bearer scheme`)
    }
  }
}

export const openApiDocument = (): OpenApi.OpenAPISpec => {
  const spec = OpenApi.fromApi(DastyarApi)
  assertShape(spec)
  // `servers` goes right after `info`, where readers look for it; every other field is kept as emitted.
  const { openapi, info, servers, ...rest } = spec
  return { openapi, info, servers: servers ?? defaultServers, ...rest }
}
