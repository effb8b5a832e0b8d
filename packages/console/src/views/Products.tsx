/** An assistant's catalog: a paged table with filters, a file import checked before sending, and editing one product. */
import type { Product, ProductPatch } from "@dastyar/sdk"
import { type FormEvent, useState } from "react"
import { useConsole } from "../context"
import { useI18n } from "../i18n"
import { Badge, ErrorNotice, Field, useAction, useLoad } from "../ui"
import { ProductImport } from "./ProductImport"

const pageSize = 20
const states = ["pending", "synced", "failed"] as const
type State = (typeof states)[number]
const isState = (value: string): value is State => states.some((state) => state === value)

const Edit = ({ assistantId, product, onDone }: { readonly assistantId: string; readonly product: Product; readonly onDone: () => void }) => {
  const { t } = useI18n()
  const { client } = useConsole()
  const [title, setTitle] = useState(product.title)
  const [category, setCategory] = useState(product.category ?? "")
  const [price, setPrice] = useState(product.price === null ? "" : String(product.price))
  const [currency, setCurrency] = useState(product.currency ?? "")
  const [inStock, setInStock] = useState(product.inStock)
  const [description, setDescription] = useState(product.description ?? "")
  const { busy, error, run } = useAction()
  const orNull = (value: string) => (value.trim() === "" ? null : value.trim())
  const save = (event: FormEvent) => {
    event.preventDefault()
    const patch: ProductPatch = {
      title,
      category: orNull(category),
      price: price.trim() === "" ? null : Number(price),
      currency: orNull(currency),
      inStock,
      description: orNull(description)
    }
    void run(async () => {
      await client.products.update(assistantId, product.externalId, patch)
      onDone()
    })
  }
  return (
    <form className="card edit" onSubmit={save} aria-label={t("products.editing", { id: product.externalId })}>
      <h3>{t("products.editing", { id: product.externalId })}</h3>
      <Field label={t("products.productTitle")}>{(id) => <input id={id} required value={title} onChange={(event) => setTitle(event.target.value)} />}</Field>
      <Field label={t("products.category")}>{(id) => <input id={id} value={category} onChange={(event) => setCategory(event.target.value)} />}</Field>
      <Field label={t("products.price")}>{(id) => <input id={id} type="number" min={0} step="any" value={price} onChange={(event) => setPrice(event.target.value)} />}</Field>
      <Field label={t("products.currency")}>{(id) => <input id={id} maxLength={8} value={currency} onChange={(event) => setCurrency(event.target.value)} />}</Field>
      <label className="inline"><input type="checkbox" checked={inStock} onChange={(event) => setInStock(event.target.checked)} /> {t("products.inStock")}</label>
      <Field label={t("products.description")}>{(id) => <textarea id={id} rows={3} value={description} onChange={(event) => setDescription(event.target.value)} />}</Field>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>{t("action.save")}</button>
        <button type="button" onClick={onDone}>{t("action.cancel")}</button>
      </div>
      <ErrorNotice error={error} />
    </form>
  )
}

export const Products = ({ assistantId }: { readonly assistantId: string }) => {
  const { t, word, number } = useI18n()
  const { client } = useConsole()
  const [state, setState] = useState<State | "">("")
  const [query, setQuery] = useState("")
  const [appliedQuery, setAppliedQuery] = useState("")
  // Cursors of the pages seen so far: the first page has none.
  const [cursors, setCursors] = useState<ReadonlyArray<string | undefined>>([undefined])
  const [editing, setEditing] = useState<Product | undefined>(undefined)
  const cursor = cursors.at(-1)
  const page = useLoad(
    () =>
      client.products.list(assistantId, {
        limit: pageSize,
        ...(cursor === undefined ? {} : { cursor }),
        ...(state === "" ? {} : { state }),
        ...(appliedQuery === "" ? {} : { q: appliedQuery })
      }),
    [client, assistantId, cursor, state, appliedQuery]
  )
  const restart = () => setCursors([undefined])
  return (
    <section className="card" aria-labelledby="products-title">
      <h2 id="products-title">{t("products.title")}</h2>
      <form className="row-form" role="search" onSubmit={(event) => { event.preventDefault(); setAppliedQuery(query.trim()); restart() }}>
        <Field label={t("products.filterQuery")}>{(id) => <input id={id} type="search" value={query} onChange={(event) => setQuery(event.target.value)} />}</Field>
        <Field label={t("products.state")}>
          {(id) => (
            <select id={id} value={state} onChange={(event) => { const value = event.target.value; setState(isState(value) ? value : ""); restart() }}>
              <option value="">{t("products.allStates")}</option>
              {states.map((option) => <option key={option} value={option}>{word("state", option)}</option>)}
            </select>
          )}
        </Field>
        <button type="submit">{t("action.filter")}</button>
      </form>
      <ErrorNotice error={page.error} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t("products.externalId")}</th>
              <th scope="col">{t("products.productTitle")}</th>
              <th scope="col">{t("products.price")}</th>
              <th scope="col">{t("products.inStock")}</th>
              <th scope="col">{t("products.state")}</th>
              <th scope="col"><span className="visually-hidden">{t("action.edit")}</span></th>
            </tr>
          </thead>
          <tbody>
            {(page.value?.list ?? []).map((product) => (
              <tr key={product.id}>
                <td dir="ltr">{product.externalId}</td>
                <td dir="auto">{product.title}</td>
                <td>{product.price === null ? "—" : `${number(product.price)} ${product.currency ?? ""}`}</td>
                <td>{product.inStock ? t("answer.yes") : t("answer.no")}</td>
                <td><Badge value={product.indexState} label={word("state", product.indexState)} /></td>
                <td><button type="button" onClick={() => setEditing(product)}>{t("action.edit")}</button></td>
              </tr>
            ))}
            {page.value?.list.length === 0 && <tr><td colSpan={6} className="muted">{t("products.none")}</td></tr>}
          </tbody>
        </table>
      </div>
      <div className="actions pager">
        <button type="button" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>{t("action.previous")}</button>
        <span className="muted">{t("products.page", { n: cursors.length })}</span>
        <button type="button" disabled={!page.value?.nextCursor} onClick={() => { const next = page.value?.nextCursor; if (next) setCursors([...cursors, next]) }}>{t("action.next")}</button>
        <button type="button" onClick={() => void page.reload()}>{t("action.refresh")}</button>
      </div>
      {editing !== undefined && <Edit key={editing.id} assistantId={assistantId} product={editing} onDone={() => { setEditing(undefined); void page.reload() }} />}
      <ProductImport assistantId={assistantId} onImported={() => { restart(); void page.reload() }} />
    </section>
  )
}
