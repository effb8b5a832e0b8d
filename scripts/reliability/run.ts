/**
 * `pnpm test:reliability`: the long form of the reliability suite
 * (`packages/server/test/Reliability` and the hostile files): 100,000 fuzz
 * requests, the tenant isolation pass with more bodies per route, 10 s of
 * warm-up and two rounds of 60 s of load (on Postgres and embedded), 50
 * SIGKILLs in the chaos run, 60 s of mixed traffic over three instances in network namespaces (one killed, one
 * restarted), a 30-minute soak (2 minutes of warm-up, memory
 * sampled every 30 s), and `/health` held to 500 ms during the hostile
 * set. Each part prints one `reliability <part>: … failures=…` line;
 * they are gathered and printed again at the end. Arguments go to vitest
 * (e.g. a single file). Chaos and the Postgres restart need `DATABASE_URL`; the multi-node part also root
 * (`ip netns`), `redis-server` and `pg_basebackup`, and is skipped, saying why, without them.
 */
import { spawn } from "node:child_process"

const env = {
  ...process.env,
  RELIABILITY_FUZZ_REQUESTS: process.env.RELIABILITY_FUZZ_REQUESTS ?? "100000",
  RELIABILITY_TENANT_BODIES: process.env.RELIABILITY_TENANT_BODIES ?? "20",
  RELIABILITY_LOAD_SECONDS: process.env.RELIABILITY_LOAD_SECONDS ?? "60",
  RELIABILITY_LOAD_WARMUP_SECONDS: process.env.RELIABILITY_LOAD_WARMUP_SECONDS ?? "10",
  RELIABILITY_LOAD_ROUNDS: process.env.RELIABILITY_LOAD_ROUNDS ?? "2",
  RELIABILITY_SOAK_SECONDS: process.env.RELIABILITY_SOAK_SECONDS ?? "1800",
  RELIABILITY_SOAK_WARMUP_SECONDS: process.env.RELIABILITY_SOAK_WARMUP_SECONDS ?? "120",
  RELIABILITY_SOAK_SAMPLE_SECONDS: process.env.RELIABILITY_SOAK_SAMPLE_SECONDS ?? "30",
  RELIABILITY_CHAOS_KILLS: process.env.RELIABILITY_CHAOS_KILLS ?? "50",
  RELIABILITY_MULTINODE_SECONDS: process.env.RELIABILITY_MULTINODE_SECONDS ?? "60",
  RELIABILITY_MAX_HEALTH_MS: process.env.RELIABILITY_MAX_HEALTH_MS ?? "500",
  RELIABILITY_SEED: process.env.RELIABILITY_SEED ?? String(Date.now() % 100_000)
}

const child = spawn(
  "pnpm",
  [
    "vitest",
    "run",
    // Passed tests' output holds the figures; vitest hides it by default here.
    "--silent=false",
    ...(process.argv.length > 2
      ? process.argv.slice(2)
      : ["packages/server/test/Reliability", "packages/server/test/Documents/HostileFiles.test.ts"])
  ],
  { env, stdio: ["ignore", "pipe", "inherit"] }
)
const figures: Array<string> = []
let pending = ""
child.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk)
  pending += chunk.toString("utf8")
  const lines = pending.split("\n")
  pending = lines.pop() ?? ""
  figures.push(...lines.filter((line) => line.startsWith("reliability ")))
})
child.on("exit", (code) => {
  console.log(`\n== reliability (seed ${env.RELIABILITY_SEED})`)
  for (const line of figures) console.log(line)
  process.exit(code ?? 1)
})
