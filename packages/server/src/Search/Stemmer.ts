/**
 * A light stemmer for normalised words (see TextNormalization.ts), shared by
 * the offline embedder, keyword search and the offline chat model.
 */

const persianSuffixes = ["هایی", "های", "ها", "ترین", "تر", "ات"]

/** English plural, tense and adverb endings, then a final silent "e": "cables" and "cable" share "cabl". */
const stemEnglish = (word: string): string => {
  let root = word
  if (root.endsWith("'s")) root = root.slice(0, -2)
  else if (root.endsWith("ies") && root.length > 4) root = `${root.slice(0, -3)}y`
  else if (/(ss|x|z|ch|sh)es$/.test(root)) root = root.slice(0, -2)
  else if (root.endsWith("s") && !/(ss|us|is)$/.test(root) && root.length > 3) root = root.slice(0, -1)
  else if (root.endsWith("ing") && root.length > 5) root = root.slice(0, -3)
  else if (root.endsWith("ed") && root.length > 4) root = root.slice(0, -2)
  else if (root.endsWith("ly") && root.length > 4) root = root.slice(0, -2)
  return root.endsWith("e") && root.length > 3 ? root.slice(0, -1) : root
}

/** A light stemmer: plural and comparative endings go, so "teapots" meets "teapot" and "کتاب‌ها" meets "کتاب". */
export const stem = (word: string): string => {
  if (/[a-z]/.test(word)) return stemEnglish(word)
  for (const suffix of persianSuffixes) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length)
  }
  return word
}
