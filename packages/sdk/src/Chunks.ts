/** Cutting a list into requests of a fixed maximum size (bulk deletes, uploads of 10 files). */
export const chunksOf = <A>(items: ReadonlyArray<A>, size: number): Array<Array<A>> => {
  const chunks: Array<Array<A>> = []
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size))
  return chunks
}
