/**
 * Token estimates where no provider counted: history budgets, the offline
 * model's usage and the query's embedding. About four characters per token
 * for Latin text and about two and a half for Persian or Arabic, which
 * tokenisers split finer; rounded up so budgets err on the safe side.
 */
const nonLatin = /[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]/g

export const estimateTokens = (text: string): number => {
  if (text.length === 0) return 0
  const arabicScript = text.match(nonLatin)?.length ?? 0
  return Math.ceil((text.length - arabicScript) / 4 + arabicScript / 2.5)
}
