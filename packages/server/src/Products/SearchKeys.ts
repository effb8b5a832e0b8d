/**
 * What search sees of a product, derived in one place: normalised keys for
 * the filters and the list's `q`, the keyword document's weighted parts, the
 * text that is embedded, and which changes make a product pending again.
 */
import { ProductFields as ProductFieldsModule, type Products } from "@dastyar/domain"
import { relatedField } from "../Search/RelatedTerms"
import { categoryKey, normalizeText, wordsOf } from "../Search/TextNormalization"
import { halfSpaceParts } from "../Search/WordParts"

export type AttributeValue = typeof Products.AttributeValue.Type

/** The writable fields and their comparison are the domain's, shared with the CLI and SDK. */
export type ProductFields = ProductFieldsModule.ProductFields
export const changedFields = ProductFieldsModule.changedFields

/** Fields shown to people but not searched: changing only these keeps the index as it is. */
const displayOnly = new Set<keyof ProductFields>(["description", "imageUrl", "url", "currency"])

/** True when a write with these changes must be re-indexed. */
export const needsReindex = (changed: ReadonlyArray<keyof ProductFields>) =>
  changed.some((field) => !displayOnly.has(field))

/** Attribute keys and string values in normal form, for the search filter. */
export const attributeKeys = (attributes: ProductFields["attributes"]): Record<string, AttributeValue> =>
  Object.fromEntries(
    Object.entries(attributes).map((
      [key, value]
    ) => [categoryKey(key), typeof value === "string" ? categoryKey(value) : value])
  )

/** Columns derived from the fields at write time. */
export const derivedKeys = (externalId: string, fields: ProductFields) => ({
  categoryKey: fields.category === null ? null : categoryKey(fields.category),
  subcategoryKey: fields.subcategory === null ? null : categoryKey(fields.subcategory),
  attributeKeys: attributeKeys(fields.attributes),
  lookupKey: `${normalizeText(fields.title)}\n${normalizeText(externalId)}`
})

/**
 * The searched fields in rank order, each as its normalised words: title,
 * classification (category and subcategory), attribute values, externalId
 * ("sku-1042" is "sku" and "1042"), and last the related terms of the title
 * and the parts of its compound words (Search/RelatedTerms.ts). The description is not searched.
 */
export const searchFields = (externalId: string, fields: ProductFields): ReadonlyArray<ReadonlyArray<string>> => {
  const searched = [
    wordsOf(fields.title),
    wordsOf([fields.category, fields.subcategory].filter((part) => part !== null).join(" ")),
    wordsOf(Object.values(fields.attributes).filter((value) => typeof value !== "boolean").map(String).join(" ")),
    wordsOf(externalId)
  ]
  return [...searched, relatedField(searched[0] ?? [], searched.flat(), halfSpaceParts(fields.title))]
}

/** The text embedded for the meaning side: the title leads, classification and attributes follow. */
export const embeddingText = (fields: ProductFields): string =>
  [
    fields.title,
    fields.title,
    fields.category,
    fields.subcategory,
    ...Object.entries(fields.attributes).map(([key, value]) =>
      typeof value === "boolean" ? (value ? key : "") : String(value)
    )
  ].filter((part): part is string => part !== null && part !== "").join(" \n ")
