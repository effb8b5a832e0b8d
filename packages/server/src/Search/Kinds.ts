/**
 * Things and the classes a shop's terms name them by, in both languages:
 * terms say "no animals", "hazardous goods", "closed on public holidays",
 * "we deliver in Isfahan province", and a customer names a hamster, a drum
 * of diesel, a festival, a town. Each line is the members, then ">", then
 * the class words. Written by hand for this project; WordNet
 * (`broaderWords`) reaches the kinds of goods, not these: a hamster is many
 * steps below "animal" there, and it has no Persian.
 *
 * One way only: a rule about animals holds for a hamster, a rule about
 * hamsters says nothing of every animal.
 */
import { stem } from "./Stemmer"
import { stopWords } from "./StopWords"
import { normalizeText, wordsOf } from "./TextNormalization"

const kinds: ReadonlyArray<string> = [
  // Animals people keep, and take to places that may refuse them.
  "cat cats kitten kittens dog dogs puppy puppies rabbit rabbits hamster hamsters guinea parrot parrots budgie " +
  "bird birds tortoise tortoises snake snakes ferret ferrets " +
  "گربه سگ توله خرگوش همستر طوطی پرنده لاکپشت مار " +
  "> animal animals pet pets livestock حیوان حیوانات جانور جانوران",
  // Fuels and other goods that catch fire or explode.
  "petrol gasoline diesel kerosene paraffin propane butane lpg firework fireworks " +
  "بنزین گازوئیل نفت کپسول فندک ترقه " +
  "> fuel fuels flammable hazardous dangerous سوخت اشتعال منفجره خطرناک",
  // Festivals and days off: what a rule about public holidays covers.
  "christmas easter eid diwali hanukkah " +
  "نوروز فطر قربان غدیر تاسوعا عاشورا عید " +
  "> holiday holidays تعطیل تعطیلات",
  // The days of the weekend.
  "saturday saturdays sunday sundays > weekend weekends",
  // Cities of the United Kingdom's nations.
  "edinburgh glasgow aberdeen dundee inverness stirling perth > scotland scottish",
  "cardiff swansea newport wrexham bangor > wales welsh",
  "belfast derry londonderry newry lisburn > ulster ireland",
  "london manchester birmingham leeds liverpool bristol sheffield newcastle nottingham leicester york oxford " +
  "cambridge brighton southampton > england",
  // Cities of Iran's provinces.
  "کرج فردیس هشتگرد نظرآباد اشتهارد طالقان ماهدشت محمدشهر > البرز",
  "اسلامشهر شهریار ورامین پاکدشت دماوند قدس ملارد پردیس فیروزکوه > تهران",
  "کاشان نجفآباد شاهینشهر خمینیشهر > اصفهان",
  "شیراز مرودشت کازرون جهرم فسا > فارس",
  "مشهد نیشابور سبزوار تربت > خراسان",
  "تبریز مراغه مرند > آذربایجان",
  "اهواز آبادان دزفول خرمشهر > خوزستان",
  "رشت انزلی لاهیجان > گیلان",
  "ساری بابل آمل قائمشهر چالوس نوشهر > مازندران",
  "تاکستان > قزوین",
  "رفسنجان سیرجان بم > کرمان",
  "میبد اردکان > یزد"
]

const classWords = new Map<string, Set<string>>()
for (const line of kinds) {
  const [members = "", classes = ""] = line.split(">")
  const named = wordsOf(normalizeText(classes)).filter((word) => !stopWords.has(word))
  for (const member of wordsOf(normalizeText(members))) {
    const root = stem(member)
    const known = classWords.get(root) ?? new Set<string>()
    for (const word of named) if (stem(word) !== root) known.add(word)
    classWords.set(root, known)
  }
}

/** The words (normal form) of the classes a thing of stem `root` belongs to ("hamster" → "animals", "pets"). */
export const classWordsOf = (root: string): ReadonlyArray<string> => [...classWords.get(root) ?? []]

/** Stems of the classes a thing of stem `root` belongs to ("hamster" → "animal", "pet"; "کاشان" → "اصفهان"). */
export const classesOf = (root: string): ReadonlyArray<string> => [...new Set(classWordsOf(root).map(stem))]
