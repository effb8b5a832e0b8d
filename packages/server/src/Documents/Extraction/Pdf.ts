/**
 * Text of a PDF, page by page, with PDF.js (through `unpdf`, no native code),
 * laid out with its structure (headings from font sizes, paragraphs, pages):
 * see `PdfLayout`.
 */
import * as Effect from "effect/Effect"
import { definePDFJSModule, getDocumentProxy } from "unpdf"
import type { PDFPageProxy } from "unpdf/pdfjs"
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

/**
 * Text pieces one page may hold: a dense real page has a few thousand, a
 * content stream that inflates to tens of MB of text operators (a Flate bomb)
 * millions, each costing PDF.js time and memory. Read as a stream and stopped
 * at this bound, such a page fails in a second instead of at the reader's
 * heap limit.
 */
const maxItemsPerPage = 100_000

type PageContent = { readonly items: ReadonlyArray<PdfTextItem | { readonly type: string }> }

const pageItems = async (page: PDFPageProxy, number: number): Promise<ReadonlyArray<PdfTextItem>> => {
  const stream: ReadableStream<PageContent> = page.streamTextContent()
  const reader = stream.getReader()
  const items: Array<PdfTextItem> = []
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return items
    // Marked-content markers carry no text.
    for (const item of value.items) if ("str" in item) items.push(item)
    if (items.length > maxItemsPerPage) {
      // Not awaited: PDF.js settles a cancelled text stream only when the page is destroyed (in `finally` below).
      void reader.cancel().catch(() => {})
      throw new PdfOverBudget(`page ${number} holds more than ${maxItemsPerPage} pieces of text`)
    }
  }
}

export const extractPdf = (bytes: Uint8Array, budget: ExtractionBudget) =>
  Effect.tryPromise({
    try: async () => {
      await definePdfjs()
      const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
      let overBudget = false
      try {
        if (pdf.numPages > budget.maxPages) {
          throw new PdfOverBudget(`it has ${pdf.numPages} pages, more than ${budget.maxPages}`)
        }
        const pages: Array<ReadonlyArray<PdfTextItem>> = []
        for (let number = 1; number <= pdf.numPages; number++) {
          const page = await pdf.getPage(number)
          pages.push(
            await pageItems(page, number).catch((error: unknown) => {
              overBudget = error instanceof PdfOverBudget
              throw error
            })
          )
          page.cleanup()
        }
        return layoutText(pages)
      } finally {
        // Over budget the answer goes out at once: PDF.js settles `destroy` only once the page's parse has run
        // to its end, and the process that read this file is ended after a failure anyway.
        const destroyed = pdf.destroy()
        if (!overBudget) await destroyed
      }
    },
    catch: (error) =>
      error instanceof PdfOverBudget
        ? permanent("too_large", `the PDF is over its reading budget: ${error.message}`)
        : errorName(error) === "PasswordException"
        ? permanent("encrypted", "the PDF is password-protected")
        : permanent("corrupt_file", `the PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  }).pipe(Effect.withSpan("Documents.extractPdf"))
