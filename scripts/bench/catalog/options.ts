/** The catalog benchmark's command-line options, checked before anything starts. */
import { parseArgs } from "node:util"

export const parseOptions = () => {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: {
      queries: { type: "string", default: "200" },
      warmup: { type: "string", default: "10" },
      budget: { type: "string", default: "60" },
      "recall-queries": { type: "string", default: "100" },
      probes: { type: "string", default: "10" },
      noise: { type: "string", default: "0.2" },
      only: { type: "string" }
    }
  })
  const count = (name: string, raw: string, min: number, max: number) => {
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`--${name} must be a whole number from ${min} to ${max} (got ${raw})`)
    }
    return value
  }
  const noise = Number(values.noise)
  if (!Number.isFinite(noise) || noise < 0 || noise > 2) {
    throw new Error(`--noise must be from 0 to 2 (got ${values.noise})`)
  }
  if (values.only !== undefined && values.only !== "import") {
    throw new Error(`--only takes "import" (got ${values.only})`)
  }
  return {
    /** "import": only the 1k and 10k imports, with the service's GC and event-loop figures during the 10k. */
    importOnly: values.only === "import",
    queries: count("queries", values.queries, 10, 10_000),
    warmup: count("warmup", values.warmup, 0, 1_000),
    /** Measuring stops at this many seconds per catalog (and for the recall), after at least 10 queries. */
    budgetMs: count("budget", values.budget, 5, 3_600) * 1000,
    recallQueries: count("recall-queries", values["recall-queries"], 10, 10_000),
    probes: count("probes", values.probes, 1, 100),
    noise
  }
}
