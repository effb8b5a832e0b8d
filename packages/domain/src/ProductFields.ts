/**
 * The writable fields of a product and what the write routes do with them,
 * written once for the server (Catalog, ProductsRepo), the CLI's feed sync
 * and CSV reader, and the SDK: a PUT or import element replaces the whole
 * product (a field not sent is cleared, `inStock` back to true); a PATCH
 * changes only the fields sent (null clears a nullable one, `attributes` is
 * replaced whole).
 */
import type { AttributeValue, ProductPatch, ProductReplace } from "./Products"

/** Every writable field, in the order the API documents them. */
export const productFieldNames = [
  "title",
  "category",
  "subcategory",
  "attributes",
  "description",
  "imageUrl",
  "url",
  "price",
  "currency",
  "inStock"
] as const

export type ProductFieldName = typeof productFieldNames[number]

/** The writable fields of a product, every one present (absent means cleared). */
export interface ProductFields {
  readonly title: string
  readonly category: string | null
  readonly subcategory: string | null
  readonly attributes: Readonly<Record<string, typeof AttributeValue.Type>>
  readonly description: string | null
  readonly imageUrl: string | null
  readonly url: string | null
  readonly price: number | null
  readonly currency: string | null
  readonly inStock: boolean
}

/** PUT and import semantics: the stored fields a full replacement becomes. */
export const replacementFields = (input: ProductReplace): ProductFields => ({
  title: input.title,
  category: input.category ?? null,
  subcategory: input.subcategory ?? null,
  attributes: input.attributes ?? {},
  description: input.description ?? null,
  imageUrl: input.imageUrl ?? null,
  url: input.url ?? null,
  price: input.price ?? null,
  currency: input.currency ?? null,
  inStock: input.inStock ?? true
})

/** PATCH semantics: sent fields replace (null clears), others keep their value. */
export const patchedFields = (base: ProductFields, patch: ProductPatch): ProductFields => ({
  title: patch.title ?? base.title,
  category: patch.category !== undefined ? patch.category : base.category,
  subcategory: patch.subcategory !== undefined ? patch.subcategory : base.subcategory,
  attributes: patch.attributes ?? base.attributes,
  description: patch.description !== undefined ? patch.description : base.description,
  imageUrl: patch.imageUrl !== undefined ? patch.imageUrl : base.imageUrl,
  url: patch.url !== undefined ? patch.url : base.url,
  price: patch.price !== undefined ? patch.price : base.price,
  currency: patch.currency !== undefined ? patch.currency : base.currency,
  inStock: patch.inStock ?? base.inStock
})

/** The writable fields of a stored product (or row), without its identity and index state. */
export const fieldsOf = (product: ProductFields): ProductFields => ({
  title: product.title,
  category: product.category,
  subcategory: product.subcategory,
  attributes: product.attributes,
  description: product.description,
  imageUrl: product.imageUrl,
  url: product.url,
  price: product.price,
  currency: product.currency,
  inStock: product.inStock
})

const sameAttributes = (a: ProductFields["attributes"], b: ProductFields["attributes"]) => {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && typeof a[key] === typeof b[key] && a[key] === b[key])
}

const sameField = (a: ProductFields, b: ProductFields, field: ProductFieldName) =>
  field === "attributes" ? sameAttributes(a.attributes, b.attributes) : a[field] === b[field]

/** The fields whose values differ; attributes compare by key and typed value, in any key order. */
export const changedFields = (before: ProductFields, after: ProductFields): ReadonlyArray<ProductFieldName> =>
  productFieldNames.filter((field) => !sameField(before, after, field))
