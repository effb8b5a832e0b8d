/** Helpers the messenger tests share: waiting on the background worker, and reading a connection back. */
import * as Effect from "effect/Effect"
import { admin, pick } from "../support/TestApp"

/** Polls until `done` holds (the worker answers in the background). */
export const eventually = <A>(probe: () => A, done: (value: A) => boolean, what: string) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 150; attempt++) {
      const value = probe()
      if (done(value)) return value
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.die(new Error(`timed out waiting for ${what}`))
  })

/** The connection as the operator API lists it. */
export const connectionOf = (assistantId: string, code: string) =>
  Effect.map(admin("GET", `/assistants/${assistantId}/connections`), (listed) => {
    const list = pick(listed.json, "data", "list")
    return Array.isArray(list) ? list.find((item) => pick(item, "connectionCode") === code) : undefined
  })

/** Polls the operator API until the connection's field satisfies `done`. */
export const connectionUntil = (assistantId: string, code: string, done: (connection: unknown) => boolean) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 150; attempt++) {
      const connection = yield* connectionOf(assistantId, code)
      if (done(connection)) return connection
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.die(new Error(`connection ${code} never reached the expected state`))
  })

/** Gaps between consecutive times, in ms. */
export const gaps = (times: ReadonlyArray<number>) => times.slice(1).map((time, index) => time - (times[index] ?? 0))
