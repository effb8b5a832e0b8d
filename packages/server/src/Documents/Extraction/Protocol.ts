/** Messages between the ingest worker fiber and the child process that reads one file. */
import * as Schema from "effect/Schema"
import { ErrorMessage } from "../IngestFailure"
import { ExtractionBudget } from "./Budget"

/** What is read in a child process: anything whose parser can be made to loop or to balloon. */
export const IsolatedKind = Schema.Literal("pdf", "docx", "doc", "text")
export type IsolatedKind = typeof IsolatedKind.Type

export const ExtractionRequest = Schema.Struct({
  kind: IsolatedKind,
  mimeType: Schema.String,
  /**
   * The file to read: a copy the parent wrote for this request. A path, not the bytes: sent through the
   * channel, a file would be serialised whole into one more copy held by the server until the reader took it.
   */
  path: Schema.String,
  budget: ExtractionBudget
})
export type ExtractionRequest = typeof ExtractionRequest.Type

export const ExtractionReply = Schema.Union(
  Schema.TaggedStruct("Extracted", { text: Schema.String }),
  Schema.TaggedStruct("Failed", { errorMessage: ErrorMessage, detail: Schema.String })
)
export type ExtractionReply = typeof ExtractionReply.Type
