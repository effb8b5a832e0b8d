/**
 * Tenant isolation, generated from the API definition: every key-protected
 * endpoint is called with account B's key and account A's identifiers, first
 * with A's assistant (must be a 404 `…not_found` with no data), then with B's
 * own assistant and A's other ids in the path and body (a path naming A's
 * resource by a global id must be a 404; an `externalId` is a name inside
 * the caller's own assistant). No answer may hold A's content, and A's stored
 * data must be unchanged at the end.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import * as http from "node:http"
import { call, pickString } from "../support/TestApp"
import { makeFixture, portOf, ReliabilityApp, report, setting } from "./Fixture"
import {
  isEnvelope,
  madePathParams,
  queryString,
  type RawRequest,
  requiredQuery,
  type Route,
  routes,
  send,
  wireArbitrary
} from "./Routes"

const seed = setting("RELIABILITY_SEED", 14)
const bodiesPerRoute = setting("RELIABILITY_TENANT_BODIES", 3)

/** Body fields that name a resource, and A's value for each. */
const idFields = (ids: Readonly<Record<string, string>>, fileId: string): Readonly<Record<string, unknown>> => ({
  externalId: ids.externalId,
  externalIds: [ids.externalId],
  fileIds: [fileId],
  folderId: ids.folderId,
  conversationId: ids.conversationId,
  jobId: ids.jobId
})

/** The payload with every id field it has set to A's. */
const withIds = (body: unknown, fields: Readonly<Record<string, unknown>>): unknown => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, key in fields ? fields[key] : value]))
}

/** Everything of one account that a request could change. */
const accountFingerprint = (accountId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly fingerprint: string }>`
      SELECT md5(concat_ws('|',
        (SELECT string_agg(a.id || a.name || a.status, ',' ORDER BY a.id) FROM assistants a WHERE a.account_id = ${accountId}),
        (SELECT string_agg(p.id || p.updated_at::text || p.title, ',' ORDER BY p.id)
          FROM products p JOIN assistants a ON a.id = p.assistant_id WHERE a.account_id = ${accountId}),
        (SELECT string_agg(d.id::text, ',' ORDER BY d.id::text)
          FROM documents d JOIN assistants a ON a.id = d.assistant_id WHERE a.account_id = ${accountId}),
        (SELECT string_agg(f.id || f.name, ',' ORDER BY f.id) FROM folders f WHERE f.account_id = ${accountId}),
        (SELECT count(*)::text FROM chat_messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.account_id = ${accountId})
      )) AS fingerprint`
    return rows[0]?.fingerprint ?? ""
  }).pipe(Effect.orDie)

const pathWith = (route: Route, values: Readonly<Record<string, string>>) =>
  route.segments.map((segment) =>
    segment.startsWith(":") ? encodeURIComponent(values[segment.slice(1)] ?? "x") : segment
  ).join("/")

const multipartFile = (folderId: string) => {
  const boundary = "tenantboundary"
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="folderId"\r\n\r\n${folderId}\r\n` +
        `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="b.txt"\r\ncontent-type: text/plain\r\n\r\nbravo\r\n--${boundary}--\r\n`
    )
  }
}

layer(ReliabilityApp(), { excludeTestServices: true, timeout: 600_000 })("reliability: tenant isolation", (it) => {
  it.effect("another account's key never reaches, reveals or changes an account's data", () =>
    Effect.gen(function*() {
      const port = yield* portOf
      const alpha = yield* makeFixture("alpha")
      const bravo = yield* makeFixture("bravo")
      const documents = yield* call("GET", `/v1/assistants/${alpha.assistantId}/documents`, { token: alpha.key })
      const alphaFileId = pickString(documents.json, "data", "list", 0, "fileId")
      const alphaProduct = yield* call("GET", `/v1/assistants/${alpha.assistantId}/products/${alpha.ids.externalId}`, {
        token: alpha.key
      })
      // What only A's data holds: a reply containing any of it is a leak.
      const secrets = [
        "alpha product title",
        "alpha document body",
        "hello alpha",
        alpha.assistantId,
        alpha.accountId,
        pickString(alphaProduct.json, "data", "id")
      ]
      const fields = idFields(alpha.ids, alphaFileId)
      const before = yield* accountFingerprint(alpha.accountId)
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
      const failures: Array<string> = []
      let requests = 0
      const keyRoutes = routes.filter((route) => route.credential === "key" && route.params.length > 0)
      for (const [index, route] of keyRoutes.entries()) {
        const made = Option.flatMap(route.payload, (schema) =>
          route.multipart ? Option.none() : Option.fromNullable(wireArbitrary(schema)))
        const bodies: ReadonlyArray<unknown> = Option.match(made, {
          onNone: () => [undefined],
          onSome: (arbitrary) =>
            fc.sample(arbitrary, { numRuns: bodiesPerRoute, seed: seed + index })
        })
        for (const made of bodies) {
          // First with A's assistant, then with B's own assistant and A's other ids.
          for (const assistantOf of [alpha, bravo]) {
            // An id the fixture has none of (a message, a report group) is made up in the right shape, so the
            // answer is about whose it is, not a 400 for its form; so is a query parameter the route needs.
            const madeIds = madePathParams(route, seed + index)
            const values = { ...madeIds, ...alpha.ids, assistantCode: assistantOf.assistantId }
            // An externalId is the caller's own name inside its assistant (B may upsert "alpha-product" for itself);
            // every other id is global, so naming A's is a 404 whatever the assistant.
            const namesForeign = route.params.some((param) => param !== "assistantCode" && param !== "externalId")
            const upload = multipartFile(alpha.ids.folderId ?? "")
            const request: RawRequest = {
              method: route.method,
              path: pathWith(route, values) + queryString(requiredQuery(route, seed + index)),
              headers: {
                authorization: `Bearer ${bravo.key}`,
                ...(route.multipart
                  ? { "content-type": upload.contentType }
                  : made === undefined
                  ? {}
                  : { "content-type": "application/json" })
              },
              body: route.multipart
                ? upload.body
                : made === undefined
                ? undefined
                : Buffer.from(JSON.stringify(withIds(made, fields))),
              mutation: assistantOf === alpha ? "A's assistant" : "B's assistant, A's ids"
            }
            const reply = yield* Effect.promise(() => send(agent, port, request))
            requests++
            const label = `${request.method} ${request.path} [${request.mutation}]`
            if ("error" in reply) {
              failures.push(`${label} → ${reply.error}`)
              continue
            }
            const leaked = secrets.filter((secret) => reply.body.includes(secret))
            if (leaked.length > 0) failures.push(`${label} → ${reply.status} reveals ${leaked.join(", ")}`)
            if (reply.status >= 500 || !isEnvelope(reply, route)) {
              failures.push(`${label} → ${reply.status} ${reply.body.slice(0, 160)}`)
            }
            const mustBeNotFound = assistantOf === alpha ||
              (namesForeign && route.method !== "POST" && route.method !== "PUT")
            if (mustBeNotFound) {
              const parsed: unknown = JSON.parse(reply.body)
              const code = typeof parsed === "object" && parsed !== null && "response" in parsed &&
                  typeof parsed.response === "object" && parsed.response !== null && "code" in parsed.response
                ? String(parsed.response.code)
                : ""
              const data = typeof parsed === "object" && parsed !== null && "data" in parsed ? parsed.data : undefined
              if (reply.status !== 404 || !code.endsWith("not_found") || data !== null) {
                failures.push(
                  `${label} → expected 404 …not_found with no data, got ${reply.status} ${reply.body.slice(0, 160)}`
                )
              }
            }
          }
        }
      }
      agent.destroy()
      const after = yield* accountFingerprint(alpha.accountId)
      if (after !== before) failures.push("account A's stored data changed")
      yield* report("tenant", { routes: keyRoutes.length, requests, failures: failures.length })
      for (const failure of failures.slice(0, 30)) console.log(`  tenant failure: ${failure}`)
      expect(failures).toEqual([])
    }), 600_000)
})
