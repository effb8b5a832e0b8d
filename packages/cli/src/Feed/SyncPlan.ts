/**
 * What `products sync` changes: each feed product is created (new), updated
 * (differs from the stored one) or unchanged (identical), and each stored
 * product absent from the feed is deleted. "Identical" follows import's full
 * replacement (the domain's `ProductFields`): a field the feed leaves out
 * counts as cleared.
 */
import { ProductFields, type Products } from "@dastyar/domain"

export interface SyncPlan {
  readonly create: ReadonlyArray<string>
  readonly update: ReadonlyArray<string>
  readonly unchanged: ReadonlyArray<string>
  readonly delete: ReadonlyArray<string>
}

/** A stored product as the list route answers it. */
type Stored = ProductFields.ProductFields & { readonly externalId: string }

/** Whether importing the feed product would leave the stored one as it is (import replaces it whole). */
export const sameProduct = (feed: Products.ProductCreate, stored: Stored): boolean =>
  ProductFields.changedFields(ProductFields.replacementFields(feed), ProductFields.fieldsOf(stored)).length === 0

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
    else if (sameProduct(product, current)) unchanged.push(product.externalId)
    else update.push(product.externalId)
  }
  const remove = stored.map((product) => product.externalId).filter((externalId) => !inFeed.has(externalId))
  return { create, update, unchanged, delete: remove }
}
