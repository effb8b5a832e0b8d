import { describe, expect, it } from "@effect/vitest"
import * as Option from "effect/Option"
import { errorCatalog } from "../src/ErrorCatalog"

describe("error catalog derived from the API definition", () => {
  it("knows each error's status and code by its tag", () => {
    expect(errorCatalog.get("InvalidApiKey")).toEqual({ status: 401, code: Option.some("api_key.invalid") })
    expect(errorCatalog.get("InvalidAdminToken")).toEqual({ status: 401, code: Option.some("admin_token.invalid") })
    expect(errorCatalog.get("AccountNotFound")).toEqual({ status: 404, code: Option.some("accounts.not_found") })
    expect(errorCatalog.get("RouteNotFound")).toEqual({ status: 404, code: Option.some("route.not_found") })
  })

  it("generic errors have a status and no code", () => {
    expect(errorCatalog.get("ValidationFailed")).toEqual({ status: 400, code: Option.none() })
    expect(errorCatalog.get("TooManyRequests")).toEqual({ status: 429, code: Option.none() })
  })
})
