/**
 * Whether two stems are one word for the offline answerer: the same stem, one
 * a short prefix of the other, or forms a stemmer leaves apart (a Persian verb's
 * person, an Arabic plural, an English verb and its noun, an agent in "-ist").
 */

/** A word in Persian (Arabic) script. */
export const persianLetters = /[\u0600-\u06FF]/u

/** Persian personal verb endings: "بازگردانم" (I return) and "بازگردانید" (you return) are one verb. */
const personalEnding = /(?:یم|ید|ند|م|ی|د)$/u
const verbBase = (word: string) =>
  word.length >= 6 && persianLetters.test(word) ? word.replace(personalEnding, "") : word

/** Letters two stems share from their start. */
const sharedStart = (a: string, b: string) => {
  let at = 0
  while (at < a.length && at < b.length && a[at] === b[at]) at++
  return at
}

/**
 * Same stem, or one a prefix of the other (4+ letters): "ship" meets "shipping", "ارسال" meets "ارسالی". An
 * English verb and its noun part only at their last letters ("subscrib" of subscribing, "subscription";
 * "pregnant", "pregnanc"): six letters shared, one left of the shorter, and of the longer three or a noun's
 * "-(p)tion"/"-sion".
 */
export const sameWord = (a: string, b: string): boolean => {
  if (a === b) return true
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a]
  // Every rule below but the broken plural's keeps the first letters: most pairs (two unrelated words) end here.
  if (a[0] !== b[0]) return brokenPlural(shorter, longer)
  // A Persian word grows by derivation ("فروش" sale, "فروشگاه" shop): only a letter or two of ending count.
  const derived = persianLetters.test(a) && longer.length - shorter.length > 2
  if (shorter.length >= 4 && longer.startsWith(shorter) && !derived) return true
  const shared = sharedStart(shorter, longer)
  if (
    !persianLetters.test(a) && shared >= 6 && shorter.length - shared <= 1 &&
    /^(?:.{0,3}|p?tions?|sions?)$/u.test(longer.slice(shared))
  ) return true
  const base = verbBase(a)
  return (base.length >= 5 && base !== a && base === verbBase(b)) || brokenPlural(shorter, longer) ||
    adjectiveOf(shorter, longer) || doubledY(shorter, longer) || actionOf(shorter, longer) || agentOf(a, b) ||
    agentOf(b, a)
}

/**
 * An English agent in "-ist" is about what it works with: "florist" meets "floral", "stylist" "style",
 * "stylist" "style". Four letters must be left: "assist" is no "ass".
 */
const agentOf = (agent: string, other: string): boolean => {
  const base = /^[a-z]{4,}ist$/u.test(agent) ? agent.slice(0, -3) : undefined
  return base !== undefined && other !== agent && other.startsWith(base)
}

/** The verbs a Persian noun of doing something to a thing is made with: keeping, taking, making, washing, sewing. */
const actionStems = /^(?:دار|گیر|ساز|شو|شوی|دوز|بردار)ی*$/u

/**
 * A Persian noun of doing something to a thing is about the thing: "کلیدسازی" (key cutting) of "کلید",
 * "پرده‌شویی" (curtain washing) of "پرده". Not another derivation: "کاربر" is no "کار".
 */
const actionOf = (thing: string, action: string): boolean =>
  thing.length >= 3 && persianLetters.test(thing) && action.startsWith(thing) &&
  actionStems.test(action.slice(thing.length))

/**
 * An English noun and its word in "-y" after a doubled consonant: an adjective ("fog", "foggy"; "sun",
 * "sunny") or a pet form ("kit", "kitty"). Only after a short stem's last consonant, doubled: "tin" is no
 * "tiny".
 */
const doubledY = (shorter: string, longer: string): boolean =>
  /^[a-z]{3}$/u.test(shorter) && /[^aeiouwxy]$/u.test(shorter) && longer === `${shorter}${shorter.slice(-1)}y`

/**
 * A Persian adjective in "انه" or "یانه" of a noun ("ماهانه", "ماهیانه" monthly of "ماه", "مردانه" of "مرد") is
 * about the noun, and its two forms are one word.
 */
const adjectiveBase = (word: string) => word.replace(/ی?انه$/u, "")
const adjectiveOf = (noun: string, adjective: string): boolean => {
  if (!adjective.endsWith("انه") || !persianLetters.test(noun)) return false
  const of = adjectiveBase(noun)
  return of.length >= 3 && of === adjectiveBase(adjective)
}

/**
 * An Arabic plural Persian writes on the pattern "اـــا" around a three-letter noun ("اقساط" of "قسط", "اجناس"
 * of "جنس"): the same noun as the singular.
 */
const brokenPlural = (singular: string, plural: string): boolean =>
  singular.length === 3 && persianLetters.test(singular) &&
  plural === `ا${singular.slice(0, 2)}ا${singular.slice(2)}`
