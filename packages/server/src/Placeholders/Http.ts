/**
 * Products and chat are declared in the domain (so the OpenAPI
 * document is complete) but built in their own issues. Until then every route
 * authenticates, checks the assistant's ownership like the real one will,
 * and answers 501 in the envelope.
 */
import { Auth, Chat, DastyarApi, Errors } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { Assistants } from "../Assistants/Assistants"

const notYet = (assistantCode: string) =>
  Effect.gen(function*() {
    const assistants = yield* Assistants
    const { accountId } = yield* Auth.CurrentAccount
    yield* assistants.requireOwned(accountId, assistantCode)
    return yield* new Errors.NotImplemented()
  })

interface AssistantRoute {
  readonly path: { readonly assistantCode: string }
}
const placeholder = ({ path }: AssistantRoute) => notYet(path.assistantCode)

export const ProductsHttpLive = HttpApiBuilder.group(DastyarApi, "products", (handlers) =>
  Effect.succeed(
    handlers
      .handle("create", placeholder)
      .handle("list", placeholder)
      .handle("import", placeholder)
      .handle("bulkDelete", placeholder)
      .handle("search", placeholder)
      .handle("get", placeholder)
      .handle("replace", placeholder)
      .handle("update", placeholder)
      .handle("delete", placeholder)
  ))

/** Chat names its own not-found rule (`chat.assistant_not_found`). */
export const ChatHttpLive = HttpApiBuilder.group(DastyarApi, "chat", (handlers) =>
  Effect.succeed(
    handlers.handle("send", ({ path }) =>
      notYet(path.assistantCode).pipe(
        Effect.catchTag("AssistantNotFound", () => Effect.fail(new Chat.ChatAssistantNotFound()))
      ))
  ))
