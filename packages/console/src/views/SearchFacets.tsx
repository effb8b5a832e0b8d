/**
 * The facets of a search as filters: each facet's values with how many matching products hold them (counted over
 * every match, not the page); a value narrows the search, and a chosen filter can be cleared.
 */
import type { FacetDistribution } from "@dastyar/sdk"
import { useI18n } from "../i18n"

export const SearchFacets = ({ distribution, filters, onFilter, onClear }: {
  readonly distribution: FacetDistribution
  readonly filters: Readonly<Record<string, string>>
  /** Sets a facet's filter, or clears it with `undefined`. */
  readonly onFilter: (facet: string, value: string | undefined) => void
  readonly onClear: () => void
}) => {
  const { t, number } = useI18n()
  const label = (facet: string) =>
    facet === "category" ? t("products.category") : facet === "subcategory" ? t("search.subcategory") : facet
  const chosen = Object.entries(filters)
  return (
    <aside className="facets" aria-labelledby="facets-title">
      <h3 id="facets-title">{t("search.facets")}</h3>
      <p className="hint small">{t("search.facetsHint")}</p>
      {chosen.length > 0 && (
        <ul className="chips" aria-label={t("search.activeFilters")}>
          {chosen.map(([facet, value]) => (
            <li key={facet}>
              <button type="button" className="chip" onClick={() => onFilter(facet, undefined)}
                aria-label={t("search.clearFilter", { name: label(facet), value })}>
                <span dir="auto">{label(facet)}: {value}</span> <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
          {chosen.length > 1 && (
            <li>
              <button type="button" className="chip" onClick={onClear}>
                {t("search.clearFilters")}
              </button>
            </li>
          )}
        </ul>
      )}
      {Object.entries(distribution).map(([facet, counts]) => {
        const values = Object.entries(counts)
        return (
          <div key={facet} role="group" aria-label={label(facet)} className="facet">
            <h4 dir="auto">{label(facet)}</h4>
            {values.length === 0
              ? <p className="muted small">{t("search.noValues")}</p>
              : (
                <ul className="facet-values">
                  {values.map(([value, count]) => (
                    <li key={value}>
                      <button type="button" className="facet-value" aria-pressed={filters[facet] === value}
                        onClick={() => onFilter(facet, filters[facet] === value ? undefined : value)}>
                        <span dir="auto">{value}</span> <span className="badge">{number(count)}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
          </div>
        )
      })}
    </aside>
  )
}
