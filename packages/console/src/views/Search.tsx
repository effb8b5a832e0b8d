/** The search playground: the same hybrid product search the assistant uses, with its filters and each hit's distance. */
import type { ProductSearch, ProductSearchHit } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction } from "../ui"

export const Search = ({ assistantId }: { readonly assistantId: string }) => {
  const { t, number } = useI18n()
  const { client } = useConsole()
  const [query, setQuery] = useState("")
  const [category, setCategory] = useState("")
  const [minPrice, setMinPrice] = useState("")
  const [maxPrice, setMaxPrice] = useState("")
  const [inStock, setInStock] = useState(false)
  // The API's default weight of meaning against keywords.
  const [semanticRatio, setSemanticRatio] = useState(0.2)
  const [hits, setHits] = useState<ReadonlyArray<ProductSearchHit> | undefined>(undefined)
  const { busy, error, run } = useAction()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const request: ProductSearch = {
      query,
      ...(category.trim() === "" ? {} : { category: category.trim() }),
      ...(minPrice.trim() === "" ? {} : { minPrice: Number(minPrice) }),
      ...(maxPrice.trim() === "" ? {} : { maxPrice: Number(maxPrice) }),
      ...(inStock ? { inStock: true } : {}),
      semanticRatio
    }
    void run(async () => setHits((await client.products.search(assistantId, request)).list))
  }
  return (
    <section className="card" aria-labelledby="search-title">
      <h2 id="search-title">{t("search.title")}</h2>
      <form className="row-form" role="search" onSubmit={submit}>
        <Field label={t("search.query")}>{(id) => <input id={id} type="search" required maxLength={1000} value={query} onChange={(event) => setQuery(event.target.value)} />}</Field>
        <Field label={t("products.category")}>{(id) => <input id={id} value={category} onChange={(event) => setCategory(event.target.value)} />}</Field>
        <Field label={t("search.minPrice")}>{(id) => <input id={id} type="number" min={0} step="any" value={minPrice} onChange={(event) => setMinPrice(event.target.value)} />}</Field>
        <Field label={t("search.maxPrice")}>{(id) => <input id={id} type="number" min={0} step="any" value={maxPrice} onChange={(event) => setMaxPrice(event.target.value)} />}</Field>
        <Field label={t("search.semanticRatio", { ratio: number(semanticRatio, { maximumFractionDigits: 2 }) })} hint={t("search.semanticRatioHint")}>
          {(id) => (
            <input id={id} type="range" min={0} max={1} step={0.05} value={semanticRatio}
              onChange={(event) => setSemanticRatio(Number(event.target.value))} />
          )}
        </Field>
        <label className="inline"><input type="checkbox" checked={inStock} onChange={(event) => setInStock(event.target.checked)} /> {t("search.inStockOnly")}</label>
        <button type="submit" className="primary" disabled={busy}>{t("search.submit")}</button>
      </form>
      <ErrorNotice error={error} />
      {hits !== undefined && (
        <ol className="results" aria-label={t("search.results")}>
          {hits.length === 0 && <li className="muted">{t("search.none")}</li>}
          {hits.map((hit) => (
            <li key={hit.id} className="result">
              <strong dir="auto">{hit.title}</strong> <code dir="ltr">{hit.externalId}</code>
              <span className="muted">
                {hit.price === null ? "" : ` · ${number(hit.price)} ${hit.currency ?? ""}`} · {t("search.distance", { d: number(hit.distance, { maximumFractionDigits: 3 }) })}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
