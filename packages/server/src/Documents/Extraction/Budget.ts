/**
 * Limits on what one uploaded file may cost to read (values in `Config.ts`).
 * Files are small on the wire but containers inflate (a 1 MB DOCX can hold
 * 1 GB of XML), so every extractor is bounded by what it produces, not by
 * what it was given.
 */
import * as Schema from "effect/Schema"

export const ExtractionBudget = Schema.Struct({
  /** All entries of a ZIP container (DOCX) together, once inflated. */
  maxInflatedBytes: Schema.Number,
  /** PDF pages read; a longer PDF fails rather than being read in part. */
  maxPages: Schema.Number,
  /** Characters of text one file may yield. */
  maxTextChars: Schema.Number,
  /** Width × height of an image given to OCR. */
  maxPixels: Schema.Number
})
export type ExtractionBudget = typeof ExtractionBudget.Type
