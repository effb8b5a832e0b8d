/**
 * `{ [key]: value }` when the value is given and `{}` when it is undefined:
 * optional fields of request bodies and queries must be absent, not undefined
 * (the generated types are exact about it).
 */
export const present = <K extends string, A>(key: K, value: A | undefined): { readonly [P in K]?: A } => {
  const entry: { [P in K]?: A } = {}
  if (value !== undefined) entry[key] = value
  return entry
}
