/**
 * What `products sync` changes: each feed product is created (new), updated
 * (differs from the stored one) or unchanged (identical), and each stored
 * product absent from the feed is deleted. "Identical" follows import's full
 * replacement: a field the feed leaves out counts as cleared.
 */
import type { Products } from "@dastyar/domain"

export interface SyncPlan {
  readonly create: ReadonlyArray<string>
  readonly update: ReadonlyArray<string>
  readonly unchanged: ReadonlyArray<string>
  readonly delete: ReadonlyArray<string>
}

type Stored = Pick<
  Products.Product,
  | "externalId"
  | "title"
  | "category"
  | "subcategory"
  | "attributes"
  | "description"
  | "imageUrl"
  | "url"
  | "price"
  | "currency"
  | "inStock"
>

/** The stored form a feed product becomes: absent nullable fields null, no attributes `{}`, in stock by default. */
const asStored = (product: Products.ProductCreate): Stored => ({
  externalId: product.externalId,
  title: product.title,
  category: product.category ?? null,
  subcategory: product.subcategory ?? null,
  attributes: product.attributes ?? {},
  description: product.description ?? null,
  imageUrl: product.imageUrl ?? null,
  url: product.url ?? null,
  price: product.price ?? null,
  currency: product.currency ?? null,
  inStock: product.inStock ?? true
})

const sameAttributes = (left: Stored["attributes"], right: Stored["attributes"]) => {
  const keys = Object.keys(left)
  return keys.length === Object.keys(right).length && keys.every((key) => Object.is(left[key], right[key]))
}

export const sameProduct = (left: Stored, right: Stored): boolean =>
  left.title === right.title &&
  left.category === right.category &&
  left.subcategory === right.subcategory &&
  left.description === right.description &&
  left.imageUrl === right.imageUrl &&
  left.url === right.url &&
  left.price === right.price &&
  left.currency === right.currency &&
  left.inStock === right.inStock &&
  sameAttributes(left.attributes, right.attributes)

export const syncPlan = (
  feed: ReadonlyArray<Products.ProductCreate>,
  stored: ReadonlyArray<Stored>
): SyncPlan => {
  const byId = new Map<string, Stored>(stored.map((product) => [product.externalId, product]))
  const inFeed = new Set<string>(feed.map((product) => product.externalId))
  const create: Array<string> = []
  const update: Array<string> = []
  const unchanged: Array<string> = []
  for (const product of feed) {
    const current = byId.get(product.externalId)
    if (current === undefined) create.push(product.externalId)
    else if (sameProduct(asStored(product), current)) unchanged.push(product.externalId)
    else update.push(product.externalId)
  }
  const remove = stored.map((product) => product.externalId).filter((externalId) => !inFeed.has(externalId))
  return { create, update, unchanged, delete: remove }
}
