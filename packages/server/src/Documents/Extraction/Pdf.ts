/**
 * Text of a PDF, page by page, with PDF.js (through `unpdf`, no native code),
 * laid out with its structure (headings from font sizes, paragraphs, pages):
 * see `PdfLayout`.
 */
import * as Effect from "effect/Effect"
import { definePDFJSModule, getDocumentProxy } from "unpdf"
import { permanent } from "../IngestFailure"
import type { ExtractionBudget } from "./Budget"
import { layoutText, type PdfTextItem } from "./PdfLayout"

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
        const pages: Array<ReadonlyArray<PdfTextItem>> = []
        for (let number = 1; number <= pdf.numPages; number++) {
          const page = await pdf.getPage(number)
          const content = await page.getTextContent()
          // Marked-content markers carry no text.
          pages.push(content.items.flatMap((item) => ("str" in item ? [item] : [])))
          page.cleanup()
        }
        return layoutText(pages)
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
  }).pipe(Effect.withSpan("Documents.extractPdf"))
