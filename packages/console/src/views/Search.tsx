/**
 * The search playground: the same hybrid product search the assistant uses, with its filters, facets as clickable
 * filters, the sort orders and each hit's distance; below it, the assistant's synonyms.
 */
import type { ProductSearchList } from "@dastyar/sdk"
import { type FormEvent, useRef, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { ErrorNotice, Field, useAction } from "../ui"
import { SearchFacets } from "./SearchFacets"
import { emptyForm, isSortOrder, type SearchForm, searchRequest, sortOrders, withFilter } from "./searchRequest"
import { Synonyms } from "./Synonyms"

export const Search = ({ assistantId }: { readonly assistantId: string }) => {
  const { t, number, word } = useI18n()
  const { client } = useConsole()
  const [form, setForm] = useState<SearchForm>(emptyForm)
  const [result, setResult] = useState<ProductSearchList | undefined>(undefined)
  const { busy, error, run } = useAction()
  // A facet click or a new order can overtake a search still in flight: only the latest one's answer is shown.
  const latest = useRef(0)
  const set = <K extends keyof SearchForm>(key: K, value: SearchForm[K]) => setForm((current) => ({ ...current, [key]: value }))
  const search = (next: SearchForm) => {
    setForm(next)
    const asked = ++latest.current
    void run(async () => {
      const found = await client.products.search(assistantId, searchRequest(next))
      if (asked === latest.current) setResult(found)
    })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    search(form)
  }
  /** Once a search has run, a change of filter or order searches again at once. */
  const refine = (next: SearchForm) => (result === undefined || form.query.trim() === "" ? setForm(next) : search(next))
  return (
    <>
      <section className="card" aria-labelledby="search-title">
        <h2 id="search-title">{t("search.title")}</h2>
        <form className="row-form" role="search" onSubmit={submit}>
          <Field label={t("search.query")}>{(id) => <input id={id} type="search" required maxLength={1000} value={form.query} onChange={(event) => set("query", event.target.value)} />}</Field>
          <Field label={t("products.category")}>{(id) => <input id={id} dir="auto" value={form.filters.category ?? ""} onChange={(event) => setForm(withFilter(form, "category", event.target.value === "" ? undefined : event.target.value))} />}</Field>
          <Field label={t("search.minPrice")}>{(id) => <input id={id} type="number" min={0} step="any" value={form.minPrice} onChange={(event) => set("minPrice", event.target.value)} />}</Field>
          <Field label={t("search.maxPrice")}>{(id) => <input id={id} type="number" min={0} step="any" value={form.maxPrice} onChange={(event) => set("maxPrice", event.target.value)} />}</Field>
          <Field label={t("search.semanticRatio", { ratio: number(form.semanticRatio, { maximumFractionDigits: 2 }) })} hint={t("search.semanticRatioHint")}>
            {(id) => (
              <input id={id} type="range" min={0} max={1} step={0.05} value={form.semanticRatio}
                onChange={(event) => set("semanticRatio", Number(event.target.value))} />
            )}
          </Field>
          <Field label={t("search.attributeFacets")} hint={t("search.attributeFacetsHint")}>
            {(id) => <input id={id} dir="auto" value={form.attributeFacets} onChange={(event) => set("attributeFacets", event.target.value)} />}
          </Field>
          <Field label={t("search.sort")} hint={t("search.sortHint")}>
            {(id) => (
              <select id={id} value={form.sort}
                onChange={(event) => refine({ ...form, sort: isSortOrder(event.target.value) ? event.target.value : "" })}>
                <option value="">{t("search.sortRelevance")}</option>
                {sortOrders.map((order) => <option key={order} value={order}>{word("search.sortBy", order)}</option>)}
              </select>
            )}
          </Field>
          <label className="inline"><input type="checkbox" checked={form.inStock} onChange={(event) => set("inStock", event.target.checked)} /> {t("search.inStockOnly")}</label>
          <button type="submit" className="primary" disabled={busy}>{t("search.submit")}</button>
        </form>
        <ErrorNotice error={error} />
        {result !== undefined && (
          <div className="search-results">
            <ol className="results" aria-label={t("search.results")}>
              {result.list.length === 0 && <li className="muted">{t("search.none")}</li>}
              {result.list.map((hit) => (
                <li key={hit.id} className="result">
                  <strong dir="auto">{hit.title}</strong> <code dir="ltr">{hit.externalId}</code>
                  <span className="muted">
                    {hit.category === null ? "" : <> · <span dir="auto">{hit.category}</span></>}
                    {hit.price === null ? "" : ` · ${number(hit.price)} ${hit.currency ?? ""}`} · {t("search.distance", { d: number(hit.distance, { maximumFractionDigits: 3 }) })}
                  </span>
                </li>
              ))}
            </ol>
            {result.facetDistribution !== undefined && (
              <SearchFacets distribution={result.facetDistribution} filters={form.filters}
                onFilter={(facet, value) => search(withFilter(form, facet, value))}
                onClear={() => search({ ...form, filters: {} })} />
            )}
          </div>
        )}
      </section>
      <Synonyms assistantId={assistantId} />
    </>
  )
}
