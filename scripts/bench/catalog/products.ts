/**
 * Generated shops for the catalog benchmark: product feeds and shopper
 * queries drawn from one vocabulary (about four in five English, the rest
 * Persian), reproducible from a seed.
 */

/** What the import route takes; the same shape as the domain's `ProductCreate`. */
export interface BenchProduct {
  readonly externalId: string
  readonly title: string
  readonly category: string
  readonly subcategory: string
  readonly attributes: Readonly<Record<string, string | number | boolean>>
  readonly description: string
  readonly price: number
  readonly currency: string
  readonly inStock: boolean
  readonly url: string
  readonly imageUrl: string
}

/** A search body as the search route takes it. */
export interface BenchQuery {
  readonly query: string
  readonly category?: string
  readonly minPrice?: number
  readonly maxPrice?: number
  /** Facets to count over every match (`facetDistribution`). */
  readonly facets?: ReadonlyArray<string>
}

/** mulberry32: small, fast and good enough to draw test data. */
export const random = (seed: number) => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <A>(items: ReadonlyArray<A>): A => {
    const item = items[Math.floor(next() * items.length)]
    if (item === undefined) throw new Error("pick from an empty list")
    return item
  }
  return { next, pick, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) }
}
type Random = ReturnType<typeof random>

interface Noun {
  readonly en: string
  readonly fa: string
}

interface Department {
  readonly en: string
  readonly fa: string
  readonly subcategories: ReadonlyArray<
    { readonly en: string; readonly fa: string; readonly nouns: ReadonlyArray<Noun> }
  >
  readonly materials: ReadonlyArray<Noun>
  readonly sizes: ReadonlyArray<string>
  readonly priceRange: readonly [number, number]
}

const colours: ReadonlyArray<Noun> = [
  { en: "black", fa: "مشکی" },
  { en: "white", fa: "سفید" },
  { en: "blue", fa: "آبی" },
  { en: "red", fa: "قرمز" },
  { en: "green", fa: "سبز" },
  { en: "grey", fa: "طوسی" },
  { en: "beige", fa: "کرم" },
  { en: "navy", fa: "سرمه‌ای" },
  { en: "pink", fa: "صورتی" },
  { en: "yellow", fa: "زرد" }
]

const adjectives: ReadonlyArray<Noun> = [
  { en: "Compact", fa: "کوچک" },
  { en: "Professional", fa: "حرفه‌ای" },
  { en: "Classic", fa: "کلاسیک" },
  { en: "Lightweight", fa: "سبک" },
  { en: "Premium", fa: "ممتاز" },
  { en: "Portable", fa: "قابل حمل" },
  { en: "Heavy Duty", fa: "صنعتی" },
  { en: "Eco", fa: "طبیعی" },
  { en: "Deluxe", fa: "لوکس" },
  { en: "Mini", fa: "مینی" }
]

const brands = [
  "Norda",
  "Kavir",
  "Alborz",
  "Pars",
  "Lumen",
  "Taba",
  "Orion",
  "Zagros",
  "Sepid",
  "Vela",
  "Hamun",
  "Dena"
]

const departments: ReadonlyArray<Department> = [
  {
    en: "Kitchen",
    fa: "آشپزخانه",
    subcategories: [
      {
        en: "Teaware",
        fa: "چای‌خوری",
        nouns: [{ en: "Teapot", fa: "قوری" }, { en: "Kettle", fa: "کتری" }, { en: "Tea Cup Set", fa: "سرویس فنجان" }, {
          en: "Samovar",
          fa: "سماور"
        }]
      },
      {
        en: "Cookware",
        fa: "ظروف پخت",
        nouns: [{ en: "Frying Pan", fa: "ماهیتابه" }, { en: "Saucepan", fa: "قابلمه" }, {
          en: "Pressure Cooker",
          fa: "زودپز"
        }, { en: "Wok", fa: "تابه ووک" }]
      },
      {
        en: "Appliances",
        fa: "لوازم برقی",
        nouns: [{ en: "Blender", fa: "مخلوط‌کن" }, { en: "Toaster", fa: "توستر" }, { en: "Rice Cooker", fa: "پلوپز" }, {
          en: "Coffee Maker",
          fa: "قهوه‌ساز"
        }]
      }
    ],
    materials: [{ en: "Ceramic", fa: "سرامیکی" }, { en: "Stainless Steel", fa: "استیل" }, {
      en: "Cast Iron",
      fa: "چدنی"
    }, { en: "Glass", fa: "شیشه‌ای" }],
    sizes: ["1 L", "1.5 L", "2 L", "24 cm", "28 cm", "800 ml"],
    priceRange: [8, 240]
  },
  {
    en: "Tools",
    fa: "ابزار",
    subcategories: [
      {
        en: "Power Tools",
        fa: "ابزار برقی",
        nouns: [{ en: "Cordless Drill", fa: "دریل شارژی" }, { en: "Angle Grinder", fa: "فرز" }, {
          en: "Jigsaw",
          fa: "اره عمودبر"
        }, { en: "Impact Driver", fa: "پیچ‌گوشتی ضربه‌ای" }]
      },
      {
        en: "Hand Tools",
        fa: "ابزار دستی",
        nouns: [{ en: "Screwdriver Set", fa: "ست پیچ‌گوشتی" }, { en: "Hammer", fa: "چکش" }, {
          en: "Adjustable Wrench",
          fa: "آچار فرانسه"
        }, { en: "Pliers", fa: "انبردست" }]
      }
    ],
    materials: [{ en: "Steel", fa: "فولادی" }, { en: "Brushless", fa: "براشلس" }, {
      en: "Chrome Vanadium",
      fa: "کروم وانادیوم"
    }],
    sizes: ["12V", "18V", "20V", "10 pieces", "32 pieces", "250 mm"],
    priceRange: [6, 420]
  },
  {
    en: "Electronics",
    fa: "کالای دیجیتال",
    subcategories: [
      {
        en: "Audio",
        fa: "صوتی",
        nouns: [{ en: "Wireless Headphones", fa: "هدفون بی‌سیم" }, { en: "Bluetooth Speaker", fa: "اسپیکر بلوتوثی" }, {
          en: "Earbuds",
          fa: "هندزفری"
        }]
      },
      {
        en: "Accessories",
        fa: "لوازم جانبی",
        nouns: [{ en: "USB-C Cable", fa: "کابل تایپ سی" }, { en: "Power Bank", fa: "پاوربانک" }, {
          en: "Phone Charger",
          fa: "شارژر گوشی"
        }, { en: "Laptop Stand", fa: "پایه لپ‌تاپ" }]
      },
      {
        en: "Computers",
        fa: "رایانه",
        nouns: [{ en: "Mechanical Keyboard", fa: "کیبورد مکانیکی" }, { en: "Wireless Mouse", fa: "ماوس بی‌سیم" }, {
          en: "Monitor",
          fa: "مانیتور"
        }, { en: "External SSD", fa: "حافظه اس‌اس‌دی" }]
      }
    ],
    materials: [{ en: "Aluminium", fa: "آلومینیومی" }, { en: "Braided", fa: "کنفی" }, { en: "Plastic", fa: "پلاستیکی" }],
    sizes: ["1 m", "2 m", "10000 mAh", "20000 mAh", "27 inch", "1 TB", "65 W"],
    priceRange: [5, 650]
  },
  {
    en: "Clothing",
    fa: "پوشاک",
    subcategories: [
      {
        en: "Outerwear",
        fa: "بالاپوش",
        nouns: [{ en: "Rain Jacket", fa: "کاپشن بارانی" }, { en: "Wool Coat", fa: "پالتو" }, {
          en: "Hoodie",
          fa: "هودی"
        }]
      },
      {
        en: "Shoes",
        fa: "کفش",
        nouns: [{ en: "Running Shoes", fa: "کفش دویدن" }, { en: "Hiking Boots", fa: "بوت کوهنوردی" }, {
          en: "Sandals",
          fa: "صندل"
        }]
      },
      {
        en: "Basics",
        fa: "لباس روزمره",
        nouns: [{ en: "T-Shirt", fa: "تی‌شرت" }, { en: "Jeans", fa: "شلوار جین" }, { en: "Scarf", fa: "شال گردن" }]
      }
    ],
    materials: [{ en: "Cotton", fa: "نخی" }, { en: "Wool", fa: "پشمی" }, { en: "Leather", fa: "چرمی" }, {
      en: "Waterproof",
      fa: "ضدآب"
    }],
    sizes: ["S", "M", "L", "XL", "size 42", "size 44"],
    priceRange: [9, 310]
  },
  {
    en: "Books",
    fa: "کتاب",
    subcategories: [
      {
        en: "Fiction",
        fa: "داستان",
        nouns: [{ en: "Novel", fa: "رمان" }, { en: "Short Stories", fa: "داستان کوتاه" }, {
          en: "Poetry Collection",
          fa: "دیوان شعر"
        }]
      },
      {
        en: "Learning",
        fa: "آموزشی",
        nouns: [{ en: "Cookbook", fa: "کتاب آشپزی" }, { en: "Language Course", fa: "کتاب آموزش زبان" }, {
          en: "Atlas",
          fa: "اطلس"
        }]
      }
    ],
    materials: [{ en: "Hardcover", fa: "جلد سخت" }, { en: "Paperback", fa: "جلد نرم" }, {
      en: "Illustrated",
      fa: "مصور"
    }],
    sizes: ["240 pages", "320 pages", "480 pages", "2nd edition"],
    priceRange: [4, 60]
  },
  {
    en: "Toys",
    fa: "اسباب‌بازی",
    subcategories: [
      {
        en: "Building",
        fa: "ساختنی",
        nouns: [{ en: "Building Blocks", fa: "لگو" }, { en: "Wooden Puzzle", fa: "پازل چوبی" }, {
          en: "Model Kit",
          fa: "کیت ماکت"
        }]
      },
      {
        en: "Outdoor",
        fa: "فضای باز",
        nouns: [{ en: "Kick Scooter", fa: "اسکوتر" }, { en: "Kite", fa: "بادبادک" }, {
          en: "Football",
          fa: "توپ فوتبال"
        }]
      }
    ],
    materials: [{ en: "Wooden", fa: "چوبی" }, { en: "Plastic", fa: "پلاستیکی" }, { en: "Foam", fa: "فومی" }],
    sizes: ["100 pieces", "500 pieces", "ages 3+", "ages 8+"],
    priceRange: [3, 140]
  }
]

/** One product of a shop; `index` makes the externalId unique within the feed. */
const product = (rng: Random, prefix: string, index: number): BenchProduct => {
  const department = rng.pick(departments)
  const subcategory = rng.pick(department.subcategories)
  const noun = rng.pick(subcategory.nouns)
  const material = rng.pick(department.materials)
  const colour = rng.pick(colours)
  const adjective = rng.pick(adjectives)
  const brand = rng.pick(brands)
  const size = rng.pick(department.sizes)
  const persian = rng.next() < 0.2
  const [low, high] = department.priceRange
  const price = Math.round((low + rng.next() * (high - low)) * 100) / 100
  const model = `${brand.slice(0, 2).toUpperCase()}-${rng.int(100, 9999)}`
  const externalId = `${prefix}-${index}`
  return {
    externalId,
    title: persian
      ? `${noun.fa} ${material.fa} ${brand} ${colour.fa} ${size} مدل ${model}`
      : `${brand} ${adjective.en} ${material.en} ${noun.en} ${size}, ${colour.en} (${model})`,
    category: persian ? department.fa : department.en,
    subcategory: persian ? subcategory.fa : subcategory.en,
    attributes: {
      brand,
      color: persian ? colour.fa : colour.en,
      material: persian ? material.fa : material.en,
      size,
      warrantyMonths: rng.pick([0, 6, 12, 24]),
      giftWrap: rng.next() < 0.3
    },
    description: persian
      ? `${noun.fa} ${adjective.fa} از ${brand}، ساخته‌شده از مواد ${material.fa}. مناسب استفاده روزانه و هدیه.`
      : `A ${adjective.en.toLowerCase()} ${noun.en.toLowerCase()} by ${brand} in ${material.en.toLowerCase()}, ${colour.en}. Built for everyday use; ships in two days.`,
    price: persian ? Math.round(price * 60_000) : price,
    currency: persian ? "IRR" : "USD",
    inStock: rng.next() < 0.85,
    url: `https://shop.example.com/p/${externalId}`,
    imageUrl: `https://shop.example.com/img/${externalId}.jpg`
  }
}

/** `count` products with externalIds `${prefix}-0` … */
export const generateProducts = (seed: number, prefix: string, count: number): ReadonlyArray<BenchProduct> => {
  const rng = random(seed)
  return Array.from({ length: count }, (_, i) => product(rng, prefix, i))
}

/** A typo a shopper makes: one letter dropped or two neighbours swapped. */
const misspell = (rng: Random, word: string): string => {
  if (word.length < 5) return word
  const at = rng.int(1, word.length - 3)
  return rng.next() < 0.5
    ? word.slice(0, at) + word.slice(at + 1)
    : word.slice(0, at) + (word[at + 1] ?? "") + (word[at] ?? "") + word.slice(at + 2)
}

/**
 * Shopper queries over the same vocabulary: a noun with a material or colour,
 * some misspelt or in Persian; about one in six filtered by category and one
 * in six by a price range.
 */
export const generateQueries = (seed: number, count: number): ReadonlyArray<BenchQuery> => {
  const rng = random(seed)
  return Array.from({ length: count }, (): BenchQuery => {
    const department = rng.pick(departments)
    const subcategory = rng.pick(department.subcategories)
    const noun = rng.pick(subcategory.nouns)
    const persian = rng.next() < 0.25
    const words = persian
      ? [noun.fa, rng.next() < 0.5 ? rng.pick(department.materials).fa : rng.pick(colours).fa]
      : [
        rng.next() < 0.5 ? rng.pick(colours).en : rng.pick(department.materials).en.toLowerCase(),
        noun.en.toLowerCase()
      ]
    const text = words.join(" ")
    const query = !persian && rng.next() < 0.2 ? text.split(" ").map((word) => misspell(rng, word)).join(" ") : text
    const filter = rng.next()
    if (filter < 1 / 6) return { query, category: persian ? department.fa : department.en }
    if (filter < 2 / 6) {
      const [low, high] = department.priceRange
      const scale = persian ? 60_000 : 1
      return { query, minPrice: low * scale, maxPrice: Math.round(((low + high) / 2) * scale) }
    }
    return { query }
  })
}
