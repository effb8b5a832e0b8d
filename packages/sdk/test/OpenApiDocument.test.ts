import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { openApiDocument } from "../scripts/OpenApiDocument"

describe("OpenAPI document", () => {
  const document = openApiDocument()

  it("is OpenAPI 3.1 with a bearer scheme for each API", () => {
    expect(document.openapi).toBe("3.1.0")
    expect(document.components.securitySchemes).toEqual({
      bearer: { type: "http", scheme: "bearer" },
      adminToken: { type: "http", scheme: "bearer" }
    })
    expect(document.paths["/v1/assistants"]?.get?.security).toEqual([{ bearer: [] }])
    expect(document.paths["/admin/v1/accounts"]?.post?.security).toEqual([{ adminToken: [] }])
  })

  it("matches the committed openapi.json (else run pnpm openapi)", () => {
    const committed: unknown = JSON.parse(fs.readFileSync(new URL("../openapi.json", import.meta.url), "utf8"))
    expect(committed).toEqual(JSON.parse(JSON.stringify(document)))
  })
})
