/**
 * What a sentence says about places: that it holds for every place ("we ship
 * to every city"), or bounds where something is done ("within 5 km of our
 * store", "فقط در محدوده شهر"); and which words name a shop's premises.
 */
import { stem } from "../Search/Stemmer"
import { wordsOf } from "../Search/TextNormalization"

/**
 * "every city", "all provinces", "هر شهری", "سراسر کشور", "شهرهای دیگر": a statement about any place the
 * question names.
 */
export const generalizers = new Set(
  wordsOf(
    "every all any other across throughout nationwide anywhere everywhere outside هر همه همهی تمام تمامی سایر کل سراسر خارج"
  )
)
export const placeKinds = new Set(
  wordsOf(
    "city cities town towns province provinces country countries region regions area areas address addresses postcode postcodes kingdom state states شهر شهرها شهرستان شهرستانها استان استانها کشور منطقه مناطق نقاط نقطه"
  )
    .map(stem)
)
export const speaksOfEveryPlace = (sentence: string): boolean => {
  const words = wordsOf(sentence)
  return words.some((word, i) =>
    generalizers.has(word) && words.slice(i + 1, i + 4).some((next) => placeKinds.has(stem(next)))
  ) ||
    words.some((word) =>
      ["nationwide", "worldwide", "abroad", "overseas", "international", "internationally"].includes(word)
    ) ||
    words.some((word, i) => word === "سراسر" && words[i + 1] === "کشور") ||
    // "شهرهای دیگر": Persian puts "other" after the kind of place too.
    words.some((word, i) => placeKinds.has(stem(word)) && ["دیگر", "دیگه"].includes(words[i + 1] ?? ""))
}

/**
 * "We deliver within 5 km of our store", "فقط در محدوده شهر", "We do not ship to the Orkney Islands": a
 * sentence that bounds where something is done, or names the places it is done in or not, answers for a place
 * the question names that no passage does (inside the bound or not, the customer learns which).
 */
const bounders = new Set(wordsOf("within only inside limited فقط داخل"))
/** A distance from a place ("within 20 miles"), or "only in …", "in Kent only", "محدوده". */
const boundPhrases =
  /\bwithin\s+(?:a\s+)?\d+(?:\.\d+)?\s*(?:miles?|km|kilomet\w*)\b|\bonly\s+(?:in|to|within|inside)\s|\bin\s+(?:the\s+)?\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+)*\s+only\b|محدوده|(?:^|\s)فقط\s+(?:\S+\s+){0,3}?(?:در|داخل)\s/u
export const boundsPlace = (sentence: string): boolean => {
  if (boundPhrases.test(sentence)) return true
  if (namesPlace.test(sentence)) return true
  // "only inside the city", "فقط داخل استان": a bounding word a few words before a kind of place.
  const words = wordsOf(sentence)
  return words.some((word, i) =>
    bounders.has(word) && words.slice(i + 1, i + 4).some((next) => placeKinds.has(stem(next)))
  )
}

/**
 * A place named after "to", "in", "within", "outside" ("to the Orkney Islands", "in Shetland"); not a
 * month or a weekday, nor where the shop's premises are ("our depot in Swindon").
 */
const namesPlace =
  /(?<!\b(?:shop|store|warehouse|branch|showroom|office|outlet|based|located|headquartered)\s)\b(?:to|in|within|across|outside|throughout)\s+(?:the\s+)?(?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b)\p{Lu}\p{Ll}+/u

/** Words for a shop's premises. */
export const premises = new Set(wordsOf("shop store branch showroom office outlet فروشگاه شعبه مغازه دفتر نمایندگی").map(stem))

/**
 * Countries and foreign cities a customer of an Iranian or British shop names most, in both languages: a
 * destination abroad, which a passage speaks of as "abroad", "international", "خارج", "خارجی".
 */
export const foreignPlaces = new Set(
  wordsOf(
    "turkey istanbul antalya georgia tbilisi armenia yerevan iraq uae emirates dubai qatar doha oman russia china " +
      "india thailand malaysia germany france italy spain canada usa america japan egypt " +
      "ترکیه استانبول آنتالیا گرجستان تفلیس ارمنستان ایروان عراق نجف کربلا امارات دبی قطر دوحه عمان روسیه چین هند " +
      "تایلند مالزی آلمان فرانسه ایتالیا اسپانیا کانادا آمریکا ژاپن مصر"
  ).map(stem)
)

/** Words a passage says a destination inside the country with: "تورهای داخلی", "domestic flights". */
export const domesticWords: ReadonlyArray<string> = wordsOf("domestic داخلی").map(stem)

/** Words a passage says "abroad" with. */
export const abroadWords: ReadonlyArray<string> = wordsOf("abroad international overseas خارج").map(stem)
