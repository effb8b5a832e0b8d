/**
 * A visitor's conversation through the website widget: sessions (a signed
 * visitor token, optionally a proven customer identity), the transcript for a
 * reload, a message answered through `ChatTurns` (streamed or not) and a new
 * conversation. One conversation per visitor (or customer) and connection,
 * kept like every channel's in `channel_conversations`.
 */
import { Chat, Conversations, Web } from "@dastyar/domain"
import * as Sse from "@effect/experimental/Sse"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { ChatTurns, type TurnInput } from "../../Chat/ChatTurns"
import { ConversationLog } from "../../Conversations/ConversationLog"
import { ConnectionsRepo } from "../ConnectionsRepo"
import { identityHolds } from "./SignedToken"
import { principalOf, type VisitorClaims, WebKeys } from "./WebKeys"
import { WebRepo } from "./WebRepo"

type Connection = typeof Web.CurrentWebConnection.Service

const toSources = (connection: Connection, sources: ReadonlyArray<Chat.Source>): Array<Web.WebSource> =>
  connection.settings.showSources ? sources.map((source) => ({ path: source.path, text: source.text ?? "" })) : []

const toReply = (connection: Connection, reply: Chat.ChatReply): Web.WebReply => ({
  ...(reply.messageId === undefined ? {} : { messageId: reply.messageId }),
  text: reply.text,
  sources: toSources(connection, reply.sources),
  products: connection.settings.showProducts
    ? reply.products.map((product) => ({
      externalId: product.externalId,
      title: product.title,
      price: product.price ?? null,
      currency: product.currency ?? null,
      imageUrl: product.imageUrl ?? null,
      url: product.url ?? null
    }))
    : [],
  degraded: reply.degraded
})

const frame = (event: string, data: unknown) =>
  Sse.encoder.write({ _tag: "Event", event, id: undefined, data: JSON.stringify(data) })

/** Failures a text-only turn cannot have (no attachments are sent). */
const impossible = (error: Chat.VoiceDisabled | Chat.AttachmentInvalid | Chat.TranscriptionUnavailable) =>
  Effect.die(error)

export class WebChat extends Effect.Service<WebChat>()("WebChat", {
  effect: Effect.gen(function*() {
    const turns = yield* ChatTurns
    const conversations = yield* ConnectionsRepo
    const webRepo = yield* WebRepo
    const keys = yield* WebKeys
    const log = yield* ConversationLog

    const visitorOf = (connection: Connection, token: string | undefined) =>
      Option.match(keys.visitor(connection.connectionCode, token), {
        onNone: () => Effect.fail(new Web.VisitorTokenInvalid()),
        onSome: Effect.succeed
      })

    const transcriptOf = Effect.fn("Web.transcript")(function*(connection: Connection, claims: VisitorClaims) {
      const principal = principalOf(claims)
      const known = yield* conversations.conversationOf(connection.connectionCode, principal)
      if (known === undefined) return []
      const owner = { accountId: connection.accountId, assistantId: connection.assistantId, principal }
      const messages = yield* turns.transcript(owner, known)
      return messages.map((message) => ({
        id: message.id,
        role: message.role,
        text: message.text,
        sources: toSources(connection, message.sources)
      }))
    })

    /** Runs the turn in the visitor's conversation, or a new one when it was removed meanwhile. */
    const inConversation = <A>(
      input: TurnInput,
      run: (input: TurnInput) => Effect.Effect<A, Chat.ChatTurnError>
    ) =>
      run(input).pipe(
        Effect.catchTag(
          "ConversationNotFound",
          (error) =>
            input.conversationId === undefined ? Effect.fail(error) : run({ ...input, conversationId: undefined })
        ),
        Effect.catchTags({
          VoiceDisabled: impossible,
          AttachmentInvalid: impossible,
          TranscriptionUnavailable: impossible,
          // Only after a retry without a conversation, which cannot name a missing one.
          ConversationNotFound: Effect.die
        })
      )

    return {
      /**
       * Continues the browser's visitor when its token is this connection's and for the same person;
       * a proven customer (`userHash`) gets their own conversation on every device.
       */
      session: Effect.fn("Web.session")(function*(connection: Connection, request: Web.WebSessionRequest) {
        const code = connection.connectionCode
        const held = request.visitorToken === undefined ? Option.none() : keys.visitor(code, request.visitorToken)
        let userId: string | undefined
        if (request.userId !== undefined || request.userHash !== undefined) {
          if (
            request.userId === undefined || request.userHash === undefined ||
            !identityHolds(connection.secret, request.userId, request.userHash)
          ) return yield* new Web.IdentityRefused()
          userId = request.userId
        }
        const session = Option.isSome(held) && held.value.u === userId && request.visitorToken !== undefined
          ? { token: request.visitorToken, claims: held.value }
          : keys.issueVisitor(code, userId)
        return { visitorToken: session.token, messages: yield* transcriptOf(connection, session.claims) }
      }),

      transcript: Effect.fn("Web.messages")(function*(connection: Connection, token: string | undefined) {
        return { messages: yield* transcriptOf(connection, yield* visitorOf(connection, token)) }
      }),

      send: Effect.fn("Web.send")(function*(
        connection: Connection,
        token: string | undefined,
        request: Web.WebMessageRequest
      ) {
        const principal = principalOf(yield* visitorOf(connection, token))
        const code = connection.connectionCode
        const known = yield* conversations.conversationOf(code, principal)
        const input: TurnInput = {
          accountId: connection.accountId,
          assistantId: connection.assistantId,
          principal,
          message: request.message,
          conversationId: known,
          channel: "web"
        }
        const remember = (conversationId: string) =>
          conversationId === known ? Effect.void : conversations.saveConversation(code, principal, conversationId)

        if (request.stream !== true) {
          const reply = yield* inConversation(input, turns.reply)
          yield* remember(reply.conversationId)
          return { _tag: "Reply", reply: toReply(connection, reply) } as const
        }
        const events = yield* inConversation(input, turns.replyStream)
        const body = events.pipe(
          Stream.mapEffect((event) =>
            event._tag === "Delta"
              ? Effect.succeed(frame("delta", { text: event.text }))
              : Effect.as(remember(event.reply.conversationId), frame("done", toReply(connection, event.reply)))
          ),
          Stream.encodeText
        )
        return { _tag: "Stream", body } as const
      }),

      /**
       * The visitor's vote on an answer of its current conversation, through the conversation log; any other
       * message (another visitor's, an older conversation's, a question) is not found.
       */
      feedback: Effect.fn("Web.feedback")(function*(
        connection: Connection,
        token: string | undefined,
        messageId: string,
        write: Conversations.FeedbackWrite
      ) {
        const principal = principalOf(yield* visitorOf(connection, token))
        const known = yield* conversations.conversationOf(connection.connectionCode, principal)
        if (known === undefined) return yield* new Conversations.MessageNotFound()
        const scope = { accountId: connection.accountId, assistantId: connection.assistantId }
        return yield* log.feedback(scope, known, messageId, write).pipe(
          Effect.catchTag("ConversationLogNotFound", () => new Conversations.MessageNotFound())
        )
      }),

      newConversation: Effect.fn("Web.newConversation")(function*(connection: Connection, token: string | undefined) {
        const claims = yield* visitorOf(connection, token)
        yield* webRepo.forgetConversation(connection.connectionCode, principalOf(claims))
        return { messages: [] }
      })
    } as const
  }),
  dependencies: [ConnectionsRepo.Default, WebRepo.Default, WebKeys.Default]
}) {}
