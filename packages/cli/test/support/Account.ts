/** An account with an API key and an assistant out of `provisioning`, made through the Effect client (in process). */
import { makeEffectClient } from "@dastyar/sdk"
import { adminToken } from "@dastyar/server/Testing"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"

export const accountWithAssistant = Effect.gen(function*() {
  // The test server's HttpClient already prefixes the server's address.
  const { admin } = yield* makeEffectClient({ baseUrl: "", token: adminToken })
  const account = yield* admin.createAccount({ payload: { name: "Shop" } })
  const key = yield* admin.createKey({ path: { accountId: account.id }, payload: {} })
  const created = yield* admin.createAssistant({ path: { accountId: account.id }, payload: { name: "Helper" } })
  yield* admin.getAssistant({ path: { assistantId: created.id } }).pipe(
    Effect.repeat({
      until: (found) => found.status !== "provisioning",
      schedule: Schedule.spaced("50 millis"),
      times: 200
    })
  )
  return { accountId: account.id, key: key.key, assistantId: created.id }
}).pipe(Effect.orDie)
