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
 * The letter rows of the keyboards people type queries on, one table per
 * layout: QWERTY and the Persian standard layout (ISIRI 9147). Each row is
 * offset half a key from the one above, so a key touches two of the row
 * above and two of the row below.
 */
const keyboardLayouts: ReadonlyArray<ReadonlyArray<string>> = [
  ["qwertyuiop", "asdfghjkl", "zxcvbnm"],
  ["ضصثقفغعهخحجچ", "شسیبلاتنمکگ", "ظطزرذدپو"]
]

/** Each key's neighbours on its own layout: beside it, and the two it touches above and below. */
const keyboardNeighbours: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  keyboardLayouts.flatMap((rows) =>
    rows.flatMap((row, r) =>
      [...row].map((key, i): readonly [string, ReadonlySet<string>] => {
        const at = (line: string | undefined, j: number) => j >= 0 ? [...(line ?? "")][j] ?? "" : ""
        const near = [at(row, i - 1), at(row, i + 1), at(rows[r - 1], i), at(rows[r - 1], i + 1),
          at(rows[r + 1], i - 1), at(rows[r + 1], i)]
        return [key, new Set(near.filter((letter) => letter !== ""))]
      })
    )
  )
)

/** Persian letters of one shape, told apart only by their dots: a dot missed or added makes one the other. */
export const persianSameShape: ReadonlyArray<string> = ["بپتثنی", "جچحخ", "دذ", "رزژ", "سش", "صض", "طظ", "عغ", "فق", "کگ"]

const letterSets = (sets: ReadonlyArray<string>) => sets.map((letters) => new Set([...letters]))
const sameShape = letterSets(persianSameShape)
const sameSound = letterSets(persianSameSound)
const together = (sets: ReadonlyArray<ReadonlySet<string>>, a: string, b: string) =>
  sets.some((letters) => letters.has(a) && letters.has(b))

/** Whether two Persian letters differ by their dots alone ("تشک", "تسک"). */
export const dotsApart = (a: string, b: string): boolean => a !== b && together(sameShape, a, b)

/** Whether two letters are keys side by side on one layout ("violim", "قابلنه"). */
export const keysApart = (a: string, b: string): boolean => keyboardNeighbours.get(a)?.has(b) === true

/** The letters a slip of the finger or of a dot types for `letter`: its keyboard neighbours and dotted kin. */
export const slipsOf = (letter: string): ReadonlyArray<string> => [
  ...new Set([
    ...(keyboardNeighbours.get(letter) ?? new Set<string>()),
    ...sameShape.flatMap((letters) => letters.has(letter) ? [...letters].filter((other) => other !== letter) : [])
  ])
]

/**
 * Letters a slip or an ear types for one another: keyboard neighbours,
 * Persian letters of one shape (a dot missed) or of one sound. One for the
 * other is half a typo (`typoCost`).
 */
export const nearLetters = (a: string, b: string): boolean =>
  a !== b && (keysApart(a, b) || dotsApart(a, b) || together(sameSound, a, b))

/** What a near letter for another costs, in typos: two such slips weigh as one typo. */
const nearSubstitution = 0.5

/**
 * Damerau–Levenshtein distance (an adjacent transposition is one edit, and
 * edits may overlap it: Lowrance–Wagner), or `max + 1` once it is above `max`.
 */
export const typoDistance = (a: string, b: string, max: number): number => editDistance(a, b, max, () => 1)

/**
 * `typoDistance` with a near letter for another (`nearLetters`) as half a
 * typo, so a word with two such slips stays within a budget of one
 * ("قابلنع" for "قابلمه"), and one slip ranks closer than another typo.
 */
export const typoCost = (a: string, b: string, max: number): number =>
  editDistance(a, b, max, (x, y) => nearLetters(x, y) ? nearSubstitution : 1)

const editDistance = (a: string, b: string, max: number, substitution: (a: string, b: string) => number): number => {
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
      const same = s[i - 1] === t[j - 1]
      const cost = same ? 0 : substitution(s[i - 1] ?? "", t[j - 1] ?? "")
      if (same) lastColumn = j
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
