/**
 * Both directions of the WhatsApp Cloud API, locally. A Graph API server
 * (`GET /{version}/{phone-number-id}`, `POST /{version}/{phone-number-id}/messages`
 * with a Bearer token; errors as `{error: {message, type, code}}`), and the
 * webhook side: notifications as Meta builds them (`object`, `entry[].changes[]`
 * with messages or statuses), signed `X-Hub-Signature-256` with the app secret.
 */
import { createHmac } from "node:crypto"
import * as http from "node:http"

export interface SentMessage {
  readonly token: string
  readonly phoneNumberId: string
  readonly to: string
  readonly body: string
  readonly payload: Record<string, unknown>
  readonly at: number
}

interface Failure {
  readonly status: number
  readonly code: number
  readonly message: string
}

export interface FakeWhatsApp {
  readonly url: string
  readonly sent: Array<SentMessage>
  /** Every request's method and path, in order. */
  readonly requests: Array<string>
  /** Access tokens the fake accepts; others get 401 with code 190. */
  readonly tokens: Set<string>
  /** The next send fails this way (once per entry). */
  readonly failNext: (failure: Failure) => void
  readonly sentTo: (to: string) => Array<SentMessage>
  readonly close: () => Promise<void>
}

const json = (response: http.ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

const graphError = (response: http.ServerResponse, failure: Failure) =>
  json(response, failure.status, {
    error: { message: failure.message, type: "OAuthException", code: failure.code, fbtrace_id: "AbCdEf" }
  })

export const startFakeWhatsApp = (): Promise<FakeWhatsApp> =>
  new Promise((resolve) => {
    const sent: Array<SentMessage> = []
    const requests: Array<string> = []
    const tokens = new Set<string>()
    const failures: Array<Failure> = []
    let wamid = 1
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const url = new URL(request.url ?? "/", "http://fake")
        requests.push(`${request.method} ${url.pathname}`)
        const token = (request.headers.authorization ?? "").replace(/^Bearer /, "")
        if (!tokens.has(token)) {
          return graphError(response, { status: 401, code: 190, message: "Error validating access token" })
        }
        const number = /^\/v\d+\.\d+\/(\d+)$/.exec(url.pathname)
        if (request.method === "GET" && number !== null) {
          return json(response, 200, { id: number[1], display_phone_number: "+1 555 0100", verified_name: "Shop" })
        }
        const messages = /^\/v\d+\.\d+\/(\d+)\/messages$/.exec(url.pathname)
        if (request.method !== "POST" || messages === null) {
          return graphError(response, { status: 400, code: 100, message: "Unsupported request" })
        }
        const payload: Record<string, unknown> = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        const text = payload.text
        const body = typeof text === "object" && text !== null ? String(Reflect.get(text, "body")) : ""
        sent.push({ token, phoneNumberId: messages[1] ?? "", to: String(payload.to), body, payload, at: Date.now() })
        const failure = failures.shift()
        if (failure !== undefined) return graphError(response, failure)
        return json(response, 200, {
          messaging_product: "whatsapp",
          contacts: [{ input: payload.to, wa_id: payload.to }],
          messages: [{ id: `wamid.out${wamid++}` }]
        })
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resolve({
        url: `http://127.0.0.1:${port}`,
        sent,
        requests,
        tokens,
        failNext: (failure) => failures.push(failure),
        sentTo: (to) => sent.filter((message) => message.to === to),
        close: () => new Promise((done) => server.close(() => done()))
      })
    })
  })

/** A notification of the business account's phone number, as WhatsApp wraps every change it sends. */
const notification = (phoneNumberId: string, value: Record<string, unknown>) => ({
  object: "whatsapp_business_account",
  entry: [{
    id: "102290129340398",
    changes: [{
      field: "messages",
      value: {
        messaging_product: "whatsapp",
        metadata: { display_phone_number: "15550100", phone_number_id: phoneNumberId },
        ...value
      }
    }]
  }]
})

/** A customer's text message as WhatsApp notifies it. */
export const textNotification = (
  phoneNumberId: string,
  message: { readonly id: string; readonly from: string; readonly text: string; readonly sentAt?: Date }
) =>
  notification(phoneNumberId, {
    contacts: [{ profile: { name: "Customer" }, wa_id: message.from }],
    messages: [{
      from: message.from,
      id: message.id,
      timestamp: String(Math.floor((message.sentAt ?? new Date()).getTime() / 1000)),
      type: "text",
      text: { body: message.text }
    }]
  })

/**
 * A delivery status of one of our messages as WhatsApp notifies it: delivered, or failed with an error (e.g.
 * 131047 when the reply came after the 24-hour window).
 */
export const statusNotification = (phoneNumberId: string, recipient: string, failedWith?: number) =>
  notification(phoneNumberId, {
    statuses: [{
      id: `wamid.out-${recipient}`,
      status: failedWith === undefined ? "delivered" : "failed",
      timestamp: String(Math.floor(Date.now() / 1000)),
      recipient_id: recipient,
      ...(failedWith === undefined ? {} : { errors: [{ code: failedWith, title: "Re-engagement message" }] })
    }]
  })

/** Meta's signature of a delivery body. */
export const hubSignature = (appSecret: string, body: string) =>
  `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`
