/**
 * A product file (CSV, JSON or JSON Lines) read and checked by the SDK's
 * `ProductFeed` (as the CLI reads it) before anything is sent: the columns it
 * understood, the rows it refused and why, and the first products it will send.
 */
import { type ProductCreate, ProductFeed, ProductFields } from "@dastyar/sdk"
import { useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction } from "../ui"

interface Read {
  readonly feed: ProductFeed.Feed
  readonly checked: ProductFeed.CheckedFeed
}

/** Problems by line, in file order: one entry per refused row. */
const refusedRows = (problems: ReadonlyArray<ProductFeed.RowProblem>) => {
  const byLine = new Map<number, Array<ProductFeed.RowProblem>>()
  for (const problem of problems) byLine.set(problem.line, [...(byLine.get(problem.line) ?? []), problem])
  return [...byLine]
}

export const ProductImport = ({ assistantId, onImported }: {
  readonly assistantId: string
  readonly onImported: (count: number) => void
}) => {
  const { t, number, word, language } = useI18n()
  const { client } = useConsole()
  const [read, setRead] = useState<Read | undefined>(undefined)
  const [fileError, setFileError] = useState<string | undefined>(undefined)
  const [result, setResult] = useState<string | undefined>(undefined)
  const { busy, error, run } = useAction()
  const open = async (file: File | undefined) => {
    setResult(undefined)
    setRead(undefined)
    setFileError(undefined)
    if (file === undefined) return
    const text = await file.text()
    const format = ProductFeed.formatOfName(file.name) ?? (/^\s*[[{]/.test(text) ? "json" : "csv")
    try {
      const feed = ProductFeed.readFeed(text, format)
      setRead({ feed, checked: ProductFeed.checkFeed(feed, language.code === "fa" ? "fa" : "en") })
    } catch (caught) {
      setFileError(caught instanceof Error ? caught.message : String(caught))
    }
  }
  // Import replaces a product whole, so a left-out field is sent as cleared: the same product either way.
  const products: ReadonlyArray<ProductCreate> = (read?.checked.products ?? []).map((product) => ({
    externalId: product.externalId,
    ...ProductFields.replacementFields(product)
  }))
  const refused = refusedRows(read?.checked.problems ?? [])
  const send = () =>
    void run(async () => {
      const counts = await client.products.importAll(assistantId, products)
      setResult(t("products.imported", { created: counts.created, updated: counts.updated, unchanged: counts.unchanged }))
      setRead(undefined)
      onImported(products.length)
    })
  return (
    <section aria-labelledby="import-title" className="product-import">
      <h3 id="import-title">{t("products.import")}</h3>
      <Field label={t("products.importFile")} hint={t("products.importHint")}>
        {(id) => (
          <input
            id={id}
            type="file"
            accept=".csv,.json,.jsonl,.ndjson,text/csv,application/json"
            onChange={(event) => void open(event.target.files?.[0])}
          />
        )}
      </Field>
      {fileError !== undefined && <div role="alert" className="error"><p>{fileError}</p></div>}
      {read !== undefined && (
        <>
          <p>{t("products.preview", { rows: read.feed.rows.length + read.feed.problems.length, errors: refused.length })}</p>
          <h4>{t("products.columns")}</h4>
          <ul className="columns-read" aria-label={t("products.columns")}>
            {read.feed.columns.map((column) => (
              <li key={column.name} data-fills={typeof column.fills === "string" ? column.fills : "field"}>
                <span dir="auto">{column.name}</span>{" → "}
                {typeof column.fills === "string"
                  ? <em>{word("column", column.fills)}</em>
                  : <code dir="ltr">{column.fills.field}</code>}
              </li>
            ))}
          </ul>
          {refused.length > 0 && (
            <>
              <h4>{t("products.rowErrors")}</h4>
              <ul className="error" aria-label={t("products.rowErrors")} data-testid="refused-rows">
                {refused.slice(0, 50).map(([line, problems]) => (
                  <li key={line}>
                    {t("products.rowError", { line })}{" "}
                    {problems.map((problem) => (problem.field === undefined ? problem.message : `${problem.field}: ${problem.message}`)).join(language.dir === "rtl" ? "؛ " : "; ")}
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="table-wrap">
            <table>
              <thead><tr><th scope="col">{t("products.externalId")}</th><th scope="col">{t("products.productTitle")}</th><th scope="col">{t("products.price")}</th></tr></thead>
              <tbody>
                {products.slice(0, 10).map((product) => (
                  <tr key={product.externalId}>
                    <td dir="auto">{product.externalId}</td>
                    <td dir="auto">{product.title}</td>
                    <td>{product.price === undefined || product.price === null ? "—" : `${number(product.price)} ${product.currency ?? ""}`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button type="button" className="primary" disabled={busy || products.length === 0} onClick={send}>
            {t("products.send", { count: products.length })}
          </button>
          {refused.length > 0 && <p className="muted">{t("products.refusedLeftOut")}</p>}
        </>
      )}
      {result !== undefined && <p role="status" className="ok">{result}</p>}
      <ErrorNotice error={error} />
    </section>
  )
}
