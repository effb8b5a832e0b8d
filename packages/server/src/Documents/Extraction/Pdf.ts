/** Text of a PDF, page by page, with PDF.js (through `unpdf`, no native code). */
import * as Effect from "effect/Effect"
import { definePDFJSModule, extractText, getDocumentProxy } from "unpdf"
import { permanent } from "../IngestFailure"
import type { ExtractionBudget } from "./Budget"

/**
 * unpdf 1.0.0 looks for a `resolvePDFJS` export its own bundled PDF.js build
 * does not have, so the build is named explicitly, once.
 */
let pdfjsDefined: Promise<void> | undefined
const definePdfjs = () => (pdfjsDefined ??= definePDFJSModule(() => import("unpdf/pdfjs")))

const errorName = (error: unknown) => (error instanceof Error ? error.name : "")

class PdfOverBudget extends Error {}

export const extractPdf = (bytes: Uint8Array, budget: ExtractionBudget) =>
  Effect.tryPromise({
    try: async () => {
      await definePdfjs()
      const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
      try {
        if (pdf.numPages > budget.maxPages) throw new PdfOverBudget(`${pdf.numPages} pages`)
        const { text } = await extractText(pdf, { mergePages: false })
        return text
      } finally {
        await pdf.destroy()
      }
    },
    catch: (error) =>
      error instanceof PdfOverBudget
        ? permanent("too_large", `the PDF has more than ${budget.maxPages} pages (${error.message})`)
        : errorName(error) === "PasswordException"
        ? permanent("encrypted", "the PDF is password-protected")
        : permanent("corrupt_file", `the PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  }).pipe(
    // Pages become paragraphs of one text; the chunker never joins two pages' last and first sentence.
    Effect.map((pages) => pages.map((page) => page.trim()).filter((page) => page.length > 0).join("\n\n")),
    Effect.withSpan("Documents.extractPdf")
  )
