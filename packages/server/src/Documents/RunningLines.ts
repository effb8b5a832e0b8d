/**
 * Running headers and footers of paged text: pages are separated by form feeds (`\f`), and a line
 * repeated at the top or the bottom of most pages (running header, footer, page number) is dropped.
 */

/** A line as it compares across pages: page numbers and other digits do not tell two running lines apart. */
const runningKey = (line: string) => line.trim().toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ")

/** How many lines at each end of a page are looked at for running headers and footers. */
const pageEdgeLines = 2

const isPageNumber = (line: string) =>
  /^(?:page\s+|صفحه\s+|-\s*)?[\d۰-۹]{1,4}(?:\s*(?:of|\/|از)\s*[\d۰-۹]{1,4})?(?:\s*-)?$/iu.test(line.trim())

/**
 * Drops the lines repeated at the top or bottom of most pages (3 pages at
 * least), and bare page numbers there, then joins the pages as paragraphs.
 */
export const withoutRunningLines = (text: string): string => {
  const pages = text.split("\f").map((page) => page.split("\n"))
  if (pages.length < 3) return pages.map((lines) => lines.join("\n")).join("\n\n")
  const edgesOf = (lines: ReadonlyArray<string>) => {
    const filled = lines.map((line, index) => ({ line, index })).filter(({ line }) => line.trim().length > 0)
    return [...filled.slice(0, pageEdgeLines), ...filled.slice(-pageEdgeLines)]
  }
  const pagesWith = new Map<string, number>()
  for (const lines of pages) {
    for (const key of new Set(edgesOf(lines).map(({ line }) => runningKey(line)))) {
      pagesWith.set(key, (pagesWith.get(key) ?? 0) + 1)
    }
  }
  const filledPages = pages.filter((lines) => lines.some((line) => line.trim().length > 0)).length
  const isRunning = (line: string) =>
    isPageNumber(line) || (pagesWith.get(runningKey(line)) ?? 0) >= Math.max(3, filledPages / 2)
  return pages
    .map((lines) => {
      const dropped = new Set(edgesOf(lines).filter(({ line }) => isRunning(line)).map(({ index }) => index))
      return lines.filter((_, index) => !dropped.has(index)).join("\n")
    })
    .join("\n\n")
}
