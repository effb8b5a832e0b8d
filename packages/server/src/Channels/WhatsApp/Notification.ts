/**
 * The parts of a WhatsApp Cloud API webhook notification a connection
 * answers: `entry[].changes[]` of field `messages`, their `value.messages[]`
 * (text, or a button's text; other kinds are answered with a request to type).
 * Status events (`value.statuses`) and other fields are acknowledged and ignored.
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

const Change = Schema.Struct({
  field: Schema.String,
  value: Schema.Struct({
    metadata: Schema.optional(Schema.Struct({ phone_number_id: Schema.String })),
    messages: Schema.optional(Schema.Array(Message))
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

/**
 * The messages for `phoneNumberId`: one Meta app may deliver for several numbers to the same URL, so another
 * number's messages are left to its own connection.
 */
export const messagesFor = (notification: Notification, phoneNumberId: string): Array<InboundMessage> =>
  notification.entry.flatMap((entry) =>
    entry.changes
      .filter((change) =>
        change.field === "messages"
        && (change.value.metadata === undefined || change.value.metadata.phone_number_id === phoneNumberId)
      )
      .flatMap((change) => change.value.messages ?? [])
      .map((message) => ({
        id: message.id,
        from: message.from,
        kind: message.type,
        text: message.text?.body ?? message.button?.text ?? null,
        sentAt: secondsOf(message.timestamp)
      }))
  )
