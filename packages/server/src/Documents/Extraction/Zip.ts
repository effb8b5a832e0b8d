/**
 * Inflates a ZIP container entry by entry in small pieces, only counting the
 * bytes, and stops as soon as the total passes the budget. The sizes a ZIP
 * declares can lie, so the bytes themselves are counted before a parser that
 * inflates everything in memory (mammoth, through JSZip) is given the file.
 */
import { Unzip, UnzipInflate, UnzipPassThrough } from "fflate"

export type InflatedSize =
  | { readonly _tag: "WithinBudget"; readonly bytes: number }
  | { readonly _tag: "OverBudget" }
  | { readonly _tag: "Corrupt"; readonly reason: string }

const pieceSize = 64 * 1024

export const measureInflated = (bytes: Uint8Array, maxInflatedBytes: number): InflatedSize => {
  let total = 0
  let over = false
  let corrupt: string | undefined
  const unzip = new Unzip((entry) => {
    entry.ondata = (error, data) => {
      if (error) {
        corrupt ??= error.message
        return
      }
      total += data.length
      if (total > maxInflatedBytes && !over) {
        over = true
        entry.terminate()
      }
    }
    if (!over && corrupt === undefined) entry.start()
  })
  unzip.register(UnzipInflate)
  unzip.register(UnzipPassThrough)
  try {
    for (let offset = 0; offset < bytes.length && !over && corrupt === undefined; offset += pieceSize) {
      const end = Math.min(offset + pieceSize, bytes.length)
      unzip.push(bytes.subarray(offset, end), end === bytes.length)
    }
  } catch (error) {
    corrupt ??= error instanceof Error ? error.message : String(error)
  }
  if (over) return { _tag: "OverBudget" }
  if (corrupt !== undefined) return { _tag: "Corrupt", reason: corrupt }
  return { _tag: "WithinBudget", bytes: total }
}
