/**
 * The API as the reliability suite sees it, read from the `HttpApi` definition
 * in `packages/domain` (never listed by hand): every endpoint with its method,
 * path parameters, query and payload schemas and the credential it needs. A
 * route added to the domain is fuzzed and tenant-checked without a new test.
 *
 * Requests are made from the schemas (`Arbitrary` → fast-check, encoded to
 * the wire form) and then broken in the ways a careless or hostile client
 * breaks them. Everything is sent over a raw socket, so the bytes, headers
 * and framing are exactly what was generated.
 */
import { Auth, DastyarApi } from "@dastyar/domain"
import { HttpApi, HttpApiSchema } from "@effect/platform"
import * as Arbitrary from "effect/Arbitrary"
import * as fc from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"
import * as http from "node:http"

export type Credential = "key" | "admin" | "none"

export interface Route {
  readonly method: string
  readonly path: string
  readonly segments: ReadonlyArray<string>
  readonly params: ReadonlyArray<string>
  /** The path parameters' schema, for made-up ids of the right shape. */
  readonly pathParams: Option.Option<Schema.Schema<unknown>>
  readonly query: Option.Option<Schema.Schema<unknown>>
  readonly payload: Option.Option<Schema.Schema<unknown>>
  readonly multipart: boolean
  readonly credential: Credential
  /**
   * Content types of the successes the endpoint declares as not JSON (an
   * export, a backup): such a success is not the envelope, its errors are.
   */
  readonly rawSuccess: ReadonlyArray<string>
}

/** The successes of an endpoint: `addSuccess` twice makes a union of them. */
const membersOf = (ast: AST.AST): ReadonlyArray<AST.AST> => ast._tag === "Union" ? ast.types : [ast]

/** Every endpoint of the API, from the domain's definition. */
export const routes: ReadonlyArray<Route> = (() => {
  const found: Array<Route> = []
  HttpApi.reflect(DastyarApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group }) => {
      const middlewares = new Set([...group.middlewares, ...endpoint.middlewares].map((middleware) => middleware.key))
      const credential: Credential = middlewares.has(Auth.ApiKeyAuth.key)
        ? "key"
        : middlewares.has(Auth.AdminAuth.key)
        ? "admin"
        : "none"
      const segments = endpoint.path.split("/")
      found.push({
        method: endpoint.method,
        path: endpoint.path,
        segments,
        params: segments.filter((segment) => segment.startsWith(":")).map((segment) => segment.slice(1)),
        pathParams: Option.map(endpoint.pathSchema, (schema) => Schema.make(schema.ast)),
        query: Option.map(endpoint.urlParamsSchema, (schema) => Schema.make(schema.ast)),
        payload: Option.map(endpoint.payloadSchema, (schema) => Schema.make(schema.ast)),
        multipart: Option.exists(
          endpoint.payloadSchema,
          (schema) => HttpApiSchema.getMultipart(schema.ast) !== undefined
        ),
        credential,
        rawSuccess: membersOf(endpoint.successSchema.ast)
          .map((ast) => HttpApiSchema.getEncoding(ast))
          .filter((encoding) => encoding.kind !== "Json")
          .map((encoding) => encoding.contentType)
      })
    }
  })
  return found
})()

/** Wire-form values of a schema: made as its type, then encoded; `undefined` without an arbitrary. */
export const wireArbitrary = (schema: Schema.Schema<unknown>): fc.Arbitrary<unknown> | undefined => {
  try {
    const typed = Arbitrary.make(schema)
    const encode = Schema.encodeUnknownOption(schema)
    return typed.map((value) => Option.getOrUndefined(encode(value)))
  } catch {
    return undefined
  }
}

/** One wire value of a schema, the same for the same seed; `undefined` without an arbitrary. */
export const sampleWire = (schema: Schema.Schema<unknown>, seed: number): unknown => {
  const arbitrary = wireArbitrary(schema)
  return arbitrary === undefined ? undefined : fc.sample(arbitrary, { numRuns: 1, seed })[0]
}

/** Path parameters of the right shape (made up, so naming nothing stored), for ids the fixture has none of. */
export const madePathParams = (route: Route, seed: number): Readonly<Record<string, string>> => {
  const made = Option.match(route.pathParams, { onNone: () => undefined, onSome: (schema) => sampleWire(schema, seed) })
  return typeof made === "object" && made !== null
    ? Object.fromEntries(Object.entries(made).map(([name, value]) => [name, String(value)]))
    : {}
}

/** The query parameters a route cannot do without, each with a valid value (optional ones left out). */
export const requiredQuery = (route: Route, seed: number): Readonly<Record<string, unknown>> =>
  Option.match(route.query, {
    onNone: () => ({}),
    onSome: (schema) => {
      const encoded = AST.encodedAST(schema.ast)
      const required = new Set(
        encoded._tag === "TypeLiteral"
          ? encoded.propertySignatures.filter((property) => !property.isOptional).map((property) => property.name)
          : []
      )
      const made = sampleWire(schema, seed)
      return typeof made === "object" && made !== null
        ? Object.fromEntries(Object.entries(made).filter(([name]) => required.has(name)))
        : {}
    }
  })

// ---------------------------------------------------------------- hostile values

/** Strings that have broken servers: control and invisible characters, bidi overrides, lengths around common limits. */
export const hostileStrings: ReadonlyArray<string> = [
  "",
  " ",
  "a\u0000b",
  "\u0000",
  "\uDFFF",
  "x\uD800",
  "\uD83D\uDE00",
  "\u202Eevil\u202C",
  "a\u200Bb\u200C\u200D\uFEFF",
  "کتاب‌فروشی",
  "'; DROP TABLE products; --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00",
  "\\",
  "x".repeat(100),
  "x".repeat(101),
  "x".repeat(191),
  "x".repeat(192),
  "ی".repeat(500),
  "x".repeat(501),
  "x".repeat(2001),
  "x".repeat(100_001)
]

/** JSON values of the wrong kind, or at the edges of numbers. */
export const hostileValues: ReadonlyArray<unknown> = [
  null,
  true,
  0,
  -1,
  1.5,
  -0,
  2 ** 53 + 2,
  1e308,
  -1e308,
  [],
  {},
  [null],
  { a: { b: { c: {} } } },
  ...hostileStrings
]

/** Dates JavaScript parses and Postgres cannot hold (or holds only before the Common Era). */
const hostileDates = ["-271821-04-20T00:00:00.029Z", "+275760-09-13T00:00:00.000Z", "0000-01-01T00:00:00Z", "1e999"]

/** Raw JSON number literals JSON.stringify cannot write. */
const hostileNumberLiterals = ["1e999", "-1e999", "123456789012345678901234567890", "0.0000000000000000000000001"]

/** Bytes that are not UTF-8: a lone continuation, an overlong form, an encoded surrogate, a truncated sequence. */
export const invalidUtf8: ReadonlyArray<Buffer> = [
  Buffer.from([0xff]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xe2, 0x82])
]

/** Path parameter values a client might send. */
export const hostilePathParams: ReadonlyArray<string> = [
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%",
  "%ZZ",
  "..",
  "%2e%2e",
  "%2F",
  "a%20b",
  encodeURIComponent("\u202Eevil"),
  encodeURIComponent("ک".repeat(191)),
  encodeURIComponent("ک".repeat(192)),
  "x".repeat(191),
  "x".repeat(5000),
  "-1",
  "0",
  "null"
]

export const wrongContentTypes: ReadonlyArray<string | undefined> = [
  undefined,
  "text/plain",
  "application/jsonx",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/json-patch+json",
  "xapplication/json"
]

// ---------------------------------------------------------------- requests

export interface RawRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: Buffer | undefined
  /** Sent in several chunks with `Transfer-Encoding: chunked`. */
  readonly chunked?: boolean
  /** What was broken, for the failure report. */
  readonly mutation: string
}

export interface RawReply {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

/** One request over a keep-alive socket; a reset or a timeout resolves as an `error`. */
export const send = (
  agent: http.Agent,
  port: number,
  request: RawRequest,
  timeoutMs = 30_000
): Promise<RawReply | { readonly error: string }> =>
  new Promise((resolve) => {
    const headers: Record<string, string> = { ...request.headers }
    if (request.body !== undefined && !request.chunked) headers["content-length"] = String(request.body.length)
    if (request.chunked) headers["transfer-encoding"] = "chunked"
    const outgoing = http.request({
      host: "127.0.0.1",
      port,
      agent,
      method: request.method,
      path: request.path,
      headers
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on(
        "end",
        () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8")
          })
      )
      response.on("error", (error) => resolve({ error: `response: ${error.message}` }))
    })
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no answer in ${timeoutMs} ms`)))
    outgoing.on("error", (error) => resolve({ error: error.message }))
    if (request.body === undefined) return void outgoing.end()
    if (!request.chunked) return void outgoing.end(request.body)
    const size = Math.max(1, Math.ceil(request.body.length / 3))
    for (let start = 0; start < request.body.length; start += size) {
      outgoing.write(request.body.subarray(start, start + size))
    }
    outgoing.end()
  })

/**
 * Is the reply the API's envelope (`{data, response: {status, message}}`), a
 * stream the request asked for, or a success the route declares as not JSON?
 */
export const isEnvelope = (reply: RawReply, route: Route): boolean => {
  const contentType = reply.headers["content-type"] ?? ""
  // Chat answers `stream: true` with a stream of events; an export declares its own body (the conversation
  // export writes CSV too when asked, under the one content type OpenAPI lets it declare), never JSON.
  if (reply.status < 300 && contentType.startsWith("text/event-stream")) return true
  if (reply.status < 300 && route.rawSuccess.length > 0 && !contentType.startsWith("application/json")) return true
  try {
    const parsed: unknown = JSON.parse(reply.body)
    if (typeof parsed !== "object" || parsed === null || !("data" in parsed) || !("response" in parsed)) return false
    const response: unknown = parsed.response
    return typeof response === "object" && response !== null && "status" in response && "message" in response
  } catch {
    return false
  }
}

/** Identifiers the suite made through the API, for filling path parameters. */
export interface Fixture {
  readonly key: string
  readonly adminToken: string
  /** Real values by path parameter name (`assistantCode`, `accountId`, `externalId`…). */
  readonly ids: Readonly<Record<string, string>>
}

/** Removing these would remove the fixture itself: such routes get made-up ids only. */
const destructive = (route: Route, param: string) =>
  route.method === "DELETE" && route.segments[route.segments.length - 1] === `:${param}`

const authHeaders = (route: Route, fixture: Fixture): Record<string, string> =>
  route.credential === "key"
    ? { authorization: `Bearer ${fixture.key}` }
    : route.credential === "admin"
    ? { authorization: `Bearer ${fixture.adminToken}` }
    : {}

const pathOf = (route: Route, values: Readonly<Record<string, string>>) =>
  route.segments.map((segment) => segment.startsWith(":") ? values[segment.slice(1)] ?? "x" : segment).join("/")

export const queryString = (query: unknown) => {
  if (typeof query !== "object" || query === null) return ""
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item))
  }
  const text = params.toString()
  return text.length === 0 ? "" : `?${text}`
}

/** The leaf paths of a JSON value, to break one of them. */
const leafPaths = (
  value: unknown,
  path: ReadonlyArray<string | number> = []
): Array<ReadonlyArray<string | number>> => {
  if (Array.isArray(value)) {
    return value.length === 0
      ? [path]
      : value.flatMap((item, index) => leafPaths(item, [...path, index]))
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
    return entries.length === 0 ? [path] : entries.flatMap(([key, item]) => leafPaths(item, [...path, key]))
  }
  return [path]
}

const setAt = (value: unknown, path: ReadonlyArray<string | number>, replacement: unknown): unknown => {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  if (Array.isArray(value)) return value.map((item, index) => index === head ? setAt(item, rest, replacement) : item)
  if (typeof value === "object" && value !== null && head !== undefined) {
    return { ...value, [head]: setAt(Reflect.get(value, head), rest, replacement) }
  }
  return value
}

/** Percent-encodes UTF-8 bytes; unlike `encodeURIComponent` it takes lone surrogates (as U+FFFD). */
const percentEncode = (text: string) =>
  Array.from(
    Buffer.from(text, "utf8"),
    (byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, "0").toUpperCase()}`
  ).join("")

const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const deepObject = (depth: number) => "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)

/** A multipart body with one file part. */
const multipartBody = (boundary: string, filename: string, content: Buffer, extra = "") =>
  Buffer.concat([
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${filename}"\r\ncontent-type: application/octet-stream\r\n\r\n`
    ),
    content,
    Buffer.from(`\r\n${extra}--${boundary}--\r\n`)
  ])

/**
 * Requests for one route: a valid one made from its schemas, then each
 * breakage fast-check picks. `big` allows the occasional 11 MB body.
 */
export const requestArbitrary = (route: Route, fixture: Fixture): fc.Arbitrary<RawRequest> => {
  const payload = Option.flatMap(
    route.payload,
    (schema) => route.multipart ? Option.none() : Option.fromNullable(wireArbitrary(schema))
  )
  const query = Option.flatMap(route.query, (schema) => Option.fromNullable(wireArbitrary(schema)))
  const paramValues = fc.record(Object.fromEntries(route.params.map((param) => {
    const real = fixture.ids[param]
    const made = fc.oneof(
      fc.constantFrom(...hostilePathParams),
      fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent)
    )
    return [
      param,
      real === undefined || destructive(route, param)
        ? made
        : fc.oneof({ weight: 4, arbitrary: fc.constant(real) }, { weight: 1, arbitrary: made })
    ]
  })))
  const base = fc.record({
    params: paramValues,
    query: Option.getOrElse(query, () => fc.constant<unknown>(undefined)),
    body: Option.getOrElse(payload, () => fc.constant<unknown>(undefined))
  })
  const headers = authHeaders(route, fixture)
  const jsonRequest = (
    path: string,
    body: Buffer | undefined,
    mutation: string,
    extra: Partial<RawRequest> = {}
  ): RawRequest => ({
    method: route.method,
    path,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body,
    mutation,
    ...extra
  })
  const json = (value: unknown) => value === undefined ? undefined : Buffer.from(JSON.stringify(value))

  return base.chain(({ body, params, query: queryValue }) => {
    const path = pathOf(route, params) + queryString(queryValue)
    const leaves = body === undefined ? [] : leafPaths(body)
    const breakages: Array<fc.Arbitrary<RawRequest>> = [
      fc.constant(jsonRequest(path, route.multipart ? undefined : json(body), "valid")),
      // A query parameter broken, an unknown one added, or one repeated.
      fc.tuple(
        fc.constantFrom("q", "limit", "cursor", "category", "state", "page", "from", "to", "zzz"),
        fc.constantFrom<unknown>(...hostileValues, ...hostileDates, "1e999", "NaN", "-1")
      )
        .map(([name, value]) =>
          jsonRequest(
            `${pathOf(route, params)}${queryString(queryValue)}${queryString(queryValue) === "" ? "?" : "&"}${
              percentEncode(name)
            }=${percentEncode(typeof value === "string" ? value : JSON.stringify(value))}`,
            json(body),
            `query ${name}`
          )
        )
    ]
    if (route.method !== "GET" && route.method !== "DELETE" || body !== undefined) {
      breakages.push(
        // One field replaced by a value of another kind, a hostile string or an extreme number.
        fc.tuple(fc.constantFrom(...(leaves.length > 0 ? leaves : [[]])), fc.constantFrom(...hostileValues))
          .map(([leaf, value]) =>
            jsonRequest(
              path,
              json(setAt(body, leaf, value)),
              `field ${leaf.join(".")} = ${JSON.stringify(value).slice(0, 40)}`
            )
          ),
        // A number literal JSON.stringify cannot write.
        fc.tuple(fc.constantFrom(...(leaves.length > 0 ? leaves : [[]])), fc.constantFrom(...hostileNumberLiterals))
          .map(([leaf, literal]) => {
            const marker = "\"__number__\""
            const text = (JSON.stringify(setAt(body, leaf, "__number__")) ?? marker).replace(marker, literal)
            return jsonRequest(path, Buffer.from(text), `field ${leaf.join(".")} = ${literal}`)
          }),
        // A field dropped, or one the schema does not know added.
        fc.constantFrom("-", ...(typeof body === "object" && body !== null ? Object.keys(body) : []))
          .map((field) => {
            const rest = typeof body === "object" && body !== null
              ? Object.fromEntries(Object.entries(body).filter(([key]) => key !== field))
              : body
            return jsonRequest(path, json(rest), `missing ${field}`)
          }),
        fc.tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...hostileValues))
          .map(([field, value]) =>
            jsonRequest(
              path,
              json(
                typeof body === "object" && body !== null && !Array.isArray(body)
                  ? { ...body, [field]: value }
                  : { [field]: value }
              ),
              `extra ${JSON.stringify(field)}`
            )
          ),
        // The body as a whole: another kind, nested too deep, not UTF-8, not JSON.
        fc.constantFrom<unknown>(...hostileValues.slice(0, 14)).map((value) =>
          jsonRequest(path, json(value) ?? Buffer.from("null"), `body ${JSON.stringify(value)}`)
        ),
        fc.constantFrom(
          deepArray(100_000),
          deepObject(100_000),
          deepArray(1_000),
          "{",
          "{\"a\":}",
          "\"unterminated",
          "",
          "{}{}",
          "\uFEFF{}"
        )
          .map((text) => jsonRequest(path, Buffer.from(text), `raw ${text.slice(0, 12)}… (${text.length})`)),
        fc.constantFrom(...invalidUtf8).map((bytes) =>
          jsonRequest(
            path,
            Buffer.concat([
              Buffer.from("{\"title\":\"a"),
              bytes,
              Buffer.from("b\",\"name\":\"a"),
              bytes,
              Buffer.from("\",\"query\":\"q\"}")
            ]),
            `invalid UTF-8 ${bytes.toString("hex")}`
          )
        ),
        // Wrong or missing content type with a body the route would take.
        fc.constantFrom(...wrongContentTypes).map((contentType) => ({
          method: route.method,
          path,
          headers: contentType === undefined ? headers : { ...headers, "content-type": contentType },
          body: json(body) ?? Buffer.from("{}"),
          mutation: `content-type ${contentType}`
        })),
        // The same body chunked.
        fc.constant(jsonRequest(path, json(body) ?? Buffer.from("{}"), "chunked", { chunked: true }))
      )
    }
    if (route.multipart) {
      breakages.push(
        fc.tuple(
          fc.constantFrom(...hostileStrings.slice(0, 12), "a.txt", "x".repeat(300) + ".txt"),
          fc.constantFrom(Buffer.from("hello"), Buffer.alloc(0), Buffer.from([0, 1, 2, 255]))
        )
          .map(([filename, content]) => ({
            method: route.method,
            path,
            headers: { ...headers, "content-type": "multipart/form-data; boundary=fuzzboundary" },
            body: multipartBody("fuzzboundary", filename, content),
            mutation: `multipart filename ${JSON.stringify(filename.slice(0, 30))}`
          })),
        fc.constantFrom(
          "--b\r\n",
          "--b--\r\n",
          "garbage",
          "--b\r\ncontent-disposition: form-data; name=\"folderId\"\r\n\r\n\u0000\r\n--b--\r\n"
        )
          .map((text) => ({
            method: route.method,
            path,
            headers: { ...headers, "content-type": "multipart/form-data; boundary=b" },
            body: Buffer.from(text),
            mutation: `multipart raw ${JSON.stringify(text.slice(0, 20))}`
          }))
      )
    }
    // Credentials: missing, malformed, or another kind's.
    breakages.push(
      fc.constantFrom(
        "",
        "Bearer",
        "Bearer x",
        `Bearer ${fixture.key} trailing`,
        `bearer ${fixture.key.toUpperCase()}`,
        "Basic eA==",
        `Bearer ${"k".repeat(5000)}`
      )
        .map((authorization) => ({
          method: route.method,
          path,
          headers: { ...(authorization === "" ? {} : { authorization }), "content-type": "application/json" },
          body: route.method === "GET" ? undefined : json(body) ?? Buffer.from("{}"),
          mutation: `authorization ${JSON.stringify(authorization.slice(0, 20))}`
        }))
    )
    return fc.oneof(...breakages)
  })
}

/** A JSON body over the 10 MB cap, with a length or chunked. */
export const oversized = (route: Route, fixture: Fixture, chunked: boolean): RawRequest => ({
  method: route.method,
  path: pathOf(route, fixture.ids),
  headers: { ...authHeaders(route, fixture), "content-type": "application/json" },
  body: Buffer.from(JSON.stringify({ title: "x".repeat(11 * 1024 * 1024) })),
  chunked,
  mutation: chunked ? "oversized chunked" : "oversized"
})
