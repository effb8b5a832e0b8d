/**
 * Typo tolerance: how many typos a query word may carry, the edit distance
 * that counts them (as MiniSearch and Typesense do), and the letters that
 * sound alike, which people who spell by ear write for one another.
 */

/**
 * Persian letters of one sound, each set written for another by people who
 * spell by ear ("ساعت", "صاعت").
 */
export const persianSameSound: ReadonlyArray<string> = ["سصث", "زذضظ", "تط", "هح", "قغ", "اع"]

/**
 * English spellings of one sound, each read as one: "ph" is "f"; "ck", "cqu",
 * "cq", "qu", "q" and a hard "c" are "k"; a soft "c" and "z" are "s"; "x" is "ks".
 */
const englishSounds: ReadonlyArray<readonly [RegExp, string]> = [
  [/ph/gu, "f"],
  [/ck|cqu|cq|qu|q|c(?![eiy])/gu, "k"],
  [/c|z/gu, "s"],
  [/x/gu, "ks"]
]

const persianSound = new Map([...persianSameSound].flatMap((set) => [...set].map((letter) => [letter, set[0] ?? ""])))

/**
 * A word as it sounds, roughly: each English spelling of one sound and each
 * Persian letter of one sound as one, doubled letters as one. Two words of
 * one key are one word spelt by ear ("jaket", "jacket"; "صاعط", "ساعت").
 */
export const soundKey = (word: string): string =>
  englishSounds.reduce((key, [spelling, sound]) => key.replace(spelling, sound), word)
    .replace(/./gu, (letter) => persianSound.get(letter) ?? letter)
    .replace(/(.)\1+/gu, "$1")

/** Typos allowed in a query word: 1 from 5 letters, 2 from 9, none in a word with digits. */
export const typoBudget = (word: string): number => {
  if (/\p{N}/u.test(word)) return 0
  const letters = [...word].length
  return letters >= 9 ? 2 : letters >= 5 ? 1 : 0
}

/**
 * Damerau–Levenshtein distance (an adjacent transposition is one edit, and
 * edits may overlap it: Lowrance–Wagner), or `max + 1` once it is above `max`.
 */
export const typoDistance = (a: string, b: string, max: number): number => {
  const s = [...a]
  const t = [...b]
  if (Math.abs(s.length - t.length) > max) return max + 1
  const infinity = s.length + t.length
  const width = t.length + 2
  const d = new Array<number>((s.length + 2) * width).fill(0)
  const at = (i: number, j: number) => i * width + j
  d[at(0, 0)] = infinity
  for (let i = 0; i <= s.length; i++) {
    d[at(i + 1, 0)] = infinity
    d[at(i + 1, 1)] = i
  }
  for (let j = 0; j <= t.length; j++) {
    d[at(0, j + 1)] = infinity
    d[at(1, j + 1)] = j
  }
  const lastRow = new Map<string, number>()
  for (let i = 1; i <= s.length; i++) {
    let lastColumn = 0
    for (let j = 1; j <= t.length; j++) {
      const k = lastRow.get(t[j - 1] ?? "") ?? 0
      const l = lastColumn
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      if (cost === 0) lastColumn = j
      d[at(i + 1, j + 1)] = Math.min(
        (d[at(i, j)] ?? 0) + cost,
        (d[at(i + 1, j)] ?? 0) + 1,
        (d[at(i, j + 1)] ?? 0) + 1,
        (d[at(k, l)] ?? 0) + (i - k - 1) + 1 + (j - l - 1)
      )
    }
    lastRow.set(s[i - 1] ?? "", i)
  }
  return Math.min(d[at(s.length + 1, t.length + 1)] ?? max + 1, max + 1)
}
