/**
 * Loaded into the service by the benchmarks (`node --import`), never by
 * production: the event loop's delay and the garbage collector's pauses
 * since the last SIGUSR2, written as JSON to DASTYAR_BENCH_PROBE_FILE on
 * each SIGUSR2 (then counted afresh). A latency's tail that the bare SQL
 * does not share is then told apart: a pause of the whole process shows in
 * the loop's delay, a collection in the pauses. With DASTYAR_BENCH_PROBE_PROFILES
 * (a directory) each stretch also gets a CPU profile and a sampled allocation
 * profile (collected objects included), `stretch-<n>.cpuprofile` and
 * `stretch-<n>.heapprofile`, n as the figures' `seq`.
 */
import * as fs from "node:fs"
import { Session } from "node:inspector"
import { createRequire } from "node:module"
import * as path from "node:path"
import { constants, monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"

const file = process.env.DASTYAR_BENCH_PROBE_FILE
if (file !== undefined && file !== "") {
  const resolution = 10
  const delay = monitorEventLoopDelay({ resolution })
  delay.enable()
  const fresh = () => ({ count: 0, totalMs: 0, maxMs: 0, major: 0, majorMs: 0 })
  let gc = fresh()
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count++
      gc.totalMs += entry.duration
      gc.maxMs = Math.max(gc.maxMs, entry.duration)
      // Mark-sweep-compact: the old generation's collection, the long pauses.
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        gc.major++
        gc.majorMs += entry.duration
      }
    }
  }).observe({ entryTypes: ["gc"] })
  // Every statement the service sends (the `pg` driver it loads from node_modules): one round trip each.
  let statements = new Map()
  const pg = createRequire(path.join(process.cwd(), "packages/server/package.json"))("pg")
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function(config, ...rest) {
    const text = typeof config === "string" ? config : String(config?.text ?? "?")
    const key = text.slice(0, 200).replace(/\s+/g, " ").trim().slice(0, 90)
    const counted = statements.get(key) ?? { count: 0, texts: new Set(), ms: [] }
    counted.count++
    counted.texts.add(text)
    statements.set(key, counted)
    // The time from the statement's send to its callback: Postgres's share of a request, told apart per statement.
    const done = rest[rest.length - 1]
    if (typeof done !== "function") return query.call(this, config, ...rest)
    const sent = performance.now()
    return query.call(this, config, ...rest.slice(0, -1), (...results) => {
      counted.ms.push(performance.now() - sent)
      return done(...results)
    })
  }
  let seq = 0
  const quantiles = (times) => {
    const sorted = [...times].sort((a, b) => a - b)
    const at = (q) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 100) / 100
    return { p50: at(0.5), p99: at(0.99), max: at(1) }
  }
  let cpu = process.cpuUsage()
  // The histogram holds the time between two of its timer's turns: the delay is what exceeds the resolution.
  const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - resolution) * 100) / 100)
  const profiles = process.env.DASTYAR_BENCH_PROBE_PROFILES
  const session = profiles === undefined || profiles === "" ? undefined : new Session()
  const post = (method, params) =>
    new Promise((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result)))
    )
  const startProfiles = async () => {
    await post("Profiler.enable")
    await post("Profiler.start")
    await post("HeapProfiler.enable")
    await post("HeapProfiler.startSampling", {
      samplingInterval: 32768,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true
    })
  }
  const writeProfiles = async (n) => {
    const { profile } = await post("Profiler.stop")
    fs.writeFileSync(path.join(profiles, `stretch-${n}.cpuprofile`), JSON.stringify(profile))
    const sampled = await post("HeapProfiler.stopSampling")
    fs.writeFileSync(path.join(profiles, `stretch-${n}.heapprofile`), JSON.stringify(sampled.profile))
  }
  if (session !== undefined) {
    session.connect()
    fs.mkdirSync(profiles, { recursive: true })
    void startProfiles()
  }
  process.on("SIGUSR2", () => {
    const used = process.cpuUsage(cpu)
    const figures = {
      seq: ++seq,
      loop: {
        p50: ms(delay.percentile(50)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
        mean: ms(delay.mean)
      },
      gc: {
        count: gc.count,
        totalMs: Math.round(gc.totalMs),
        maxMs: Math.round(gc.maxMs * 10) / 10,
        major: gc.major,
        majorMs: Math.round(gc.majorMs)
      },
      // The service's CPU time in the phase: its share of the two cores, beside the latency.
      cpuMs: Math.round((used.user + used.system) / 1000),
      heapUsedMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      // Where the stretch ends in the service's life (and in a --cpu-prof profile of it).
      uptimeS: Math.round(process.uptime() * 100) / 100,
      statements: [...statements].sort((a, b) => b[1].count - a[1].count)
        .map(([text, { count, texts, ms: times }]) => ({ text, count, texts: texts.size, ms: quantiles(times) }))
    }
    statements = new Map()
    cpu = process.cpuUsage()
    const publish = () => {
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(figures))
      fs.renameSync(`${file}.tmp`, file)
      delay.reset()
      gc = fresh()
    }
    if (session === undefined) publish()
    else void writeProfiles(figures.seq).then(startProfiles).finally(publish)
  })
}
