/**
 * The parts of a WhatsApp Cloud API webhook notification a connection
 * answers: `entry[].changes[]` of field `messages`, their `value.messages[]`
 * (text, or a button's text; other kinds are answered with a request to type).
 * Status events (`value.statuses`) are not answered; only a reply WhatsApp
 * refused as outside the 24-hour window (a `failed` status with error 131047)
 * is read, so it can be recorded. Other fields are acknowledged and ignored.
 */
import * as Schema from "effect/Schema"

const Message = Schema.Struct({
  from: Schema.String,
  id: Schema.String,
  timestamp: Schema.String,
  type: Schema.String,
  text: Schema.optional(Schema.Struct({ body: Schema.String })),
  button: Schema.optional(Schema.Struct({ text: Schema.optional(Schema.String) }))
})

const Status = Schema.Struct({
  id: Schema.optional(Schema.String),
  status: Schema.String,
  timestamp: Schema.optional(Schema.String),
  recipient_id: Schema.optional(Schema.String),
  errors: Schema.optional(Schema.Array(Schema.Struct({
    code: Schema.Number,
    title: Schema.optional(Schema.String)
  })))
})

const Change = Schema.Struct({
  field: Schema.String,
  value: Schema.Struct({
    metadata: Schema.optional(Schema.Struct({ phone_number_id: Schema.String })),
    messages: Schema.optional(Schema.Array(Message)),
    statuses: Schema.optional(Schema.Array(Status))
  })
})

export const Notification = Schema.Struct({
  object: Schema.String,
  entry: Schema.Array(Schema.Struct({ changes: Schema.Array(Change) }))
})
export type Notification = typeof Notification.Type

export interface InboundMessage {
  readonly id: string
  readonly from: string
  readonly kind: string
  readonly text: string | null
  /** Unix seconds. */
  readonly sentAt: number
}

/** A timestamp WhatsApp did not send as Unix seconds counts as now (the window is then open). */
const secondsOf = (timestamp: string) => {
  const seconds = Number.parseInt(timestamp, 10)
  return Number.isFinite(seconds) ? seconds : Math.floor(Date.now() / 1000)
}

/** WhatsApp's error for a free-form message outside the 24-hour customer-service window, and what it means. */
export const windowClosedCode = 131047
export const outsideWindow = "WhatsApp allows free-form replies only within 24 hours of the customer's last message"

export interface RefusedReply {
  /** The `wamid` of our reply. */
  readonly id: string
  readonly to: string
  readonly description: string
  readonly sentAt: number
}

/**
 * The `messages` changes for `phoneNumberId`: one Meta app may deliver for several numbers to the same URL, so
 * another number's events are left to its own connection.
 */
const changesFor = (notification: Notification, phoneNumberId: string) =>
  notification.entry.flatMap((entry) =>
    entry.changes.filter((change) =>
      change.field === "messages"
      && (change.value.metadata === undefined || change.value.metadata.phone_number_id === phoneNumberId)
    )
  )

/** Replies WhatsApp refused as outside the 24-hour window (reported after the send was accepted). */
export const refusedFor = (notification: Notification, phoneNumberId: string): Array<RefusedReply> =>
  changesFor(notification, phoneNumberId)
    .flatMap((change) => change.value.statuses ?? [])
    .flatMap((status) => {
      const error = status.errors?.find((candidate) => candidate.code === windowClosedCode)
      if (status.status !== "failed" || error === undefined) return []
      return [{
        id: status.id ?? "unknown",
        to: status.recipient_id ?? "unknown",
        description: `${error.code}: ${error.title ?? "re-engagement message"}`,
        sentAt: secondsOf(status.timestamp ?? "")
      }]
    })

/** The customers' messages for `phoneNumberId`. */
export const messagesFor = (notification: Notification, phoneNumberId: string): Array<InboundMessage> =>
  changesFor(notification, phoneNumberId)
    .flatMap((change) => change.value.messages ?? [])
    .map((message) => ({
      id: message.id,
      from: message.from,
      kind: message.type,
      text: message.text?.body ?? message.button?.text ?? null,
      sentAt: secondsOf(message.timestamp)
    }))
