/** The CSV form of the export: one row per message, with its conversation's columns repeated. */
import type { Conversations } from "@dastyar/domain"
import * as DateTime from "effect/DateTime"
import { csvLine } from "../Platform/Csv"
import type { ConversationRow } from "./ConversationLogRepo"

const columns = [
  "conversation_id",
  "principal",
  "channel",
  "conversation_started_at",
  "message_id",
  "role",
  "created_at",
  "content",
  "model",
  "degraded",
  "declined",
  "curated_id",
  "sources",
  "products",
  "feedback",
  "feedback_comment"
]

const flag = (value: boolean | null) => value === null ? "" : String(value)

export const csvHeader = csvLine(columns)

export const csvRows = (row: ConversationRow, messages: ReadonlyArray<Conversations.ConversationMessage>): string =>
  messages.map((message) =>
    csvLine([
      row.id,
      row.principal,
      row.channel,
      row.createdAt.toISOString(),
      message.id,
      message.role,
      DateTime.formatIso(message.createdAt),
      message.content,
      message.model ?? "",
      flag(message.degraded),
      flag(message.declined),
      message.curatedId ?? "",
      message.sources.map((source) => source.path).join(" | "),
      message.products.map((product) => product.externalId).join(" | "),
      message.feedback?.rating ?? "",
      message.feedback?.comment ?? ""
    ])
  ).join("")
