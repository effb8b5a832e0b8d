/**
 * The layer graph of the whole service, shared by `main.ts` and the tests:
 * configuration → database (migrated) → durable queue → services → HTTP app
 * and background workers. Only the `HttpServer` is left open.
 *
 * Floor by floor: the infrastructure every service may use (configuration,
 * database, queue, embedder, transcriber, logging, telemetry); the services
 * and repos the HTTP handlers and workers reach directly, merged so each is
 * built once; chat on top of them; channels on chat; then the roots. A
 * service's private helpers come through its own `dependencies:`.
 */
import * as Layer from "effect/Layer"
import { AccountsRepo } from "./Accounts/AccountsRepo"
import { Assistants } from "./Assistants/Assistants"
import { AssistantsRepo } from "./Assistants/AssistantsRepo"
import * as LifecycleWorker from "./Assistants/LifecycleWorker"
import * as DemoSeed from "./Bootstrap/DemoSeed"
import * as ChannelWorker from "./Channels/ChannelWorker"
import { Connections } from "./Channels/Connections"
import { Inbox } from "./Channels/Inbox"
import * as ChatTurnsLive from "./Chat/ChatTurnsLive"
import { AppConfig } from "./Config"
import { Articles } from "./Content/Articles"
import { ConversationLog } from "./Conversations/ConversationLog"
import * as Retention from "./Conversations/Retention"
import { observerLayer, Unanswered } from "./Conversations/Unanswered"
import { CuratedAnswers, lookupLayer } from "./Curated/CuratedAnswers"
import * as Database from "./Database/Database"
import * as Migrator from "./Database/Migrator"
import * as Replicas from "./Database/Replicas"
import * as ChunkReembedder from "./Documents/ChunkReembedder"
import { Documents } from "./Documents/Documents"
import { DocumentsRepo } from "./Documents/DocumentsRepo"
import * as HybridChunkSearch from "./Documents/HybridChunkSearch"
import { Ingest } from "./Documents/Ingest"
import * as IngestWorker from "./Documents/IngestWorker"
import { FoldersRepo } from "./Folders/FoldersRepo"
import * as HttpApi from "./Http/Api"
import * as Logging from "./Logging"
import { ModelCatalog } from "./Models/ModelCatalog"
import { AdminToken } from "./Platform/AdminToken"
import { Catalog } from "./Products/Catalog"
import * as HybridSearch from "./Products/HybridSearch"
import { ProductIndexer } from "./Products/ProductIndexer"
import * as ProductIndexing from "./Products/ProductIndexer"
import { VectorIndexes } from "./Products/VectorIndexes"
import * as VectorIndexing from "./Products/VectorIndexes"
import * as Queue from "./Queue/Queue"
import * as Embedders from "./Search/Embedders"
import { Synonyms } from "./Search/Synonyms"
import * as Telemetry from "./Telemetry"
import * as Transcribers from "./Transcription/Transcribers"

const DatabaseLive = Layer.merge(Migrator.layer, Replicas.layer).pipe(Layer.provideMerge(Database.layer))

/** What every service may use: the database, the durable queue, the embedder and the transcriber. */
const InfrastructureLive = Layer.mergeAll(Queue.layer, Embedders.layer, Transcribers.layer).pipe(
  Layer.provideMerge(DatabaseLive)
)

const ServicesLive = Layer.mergeAll(
  Assistants.Default,
  AssistantsRepo.Default,
  AccountsRepo.Default,
  FoldersRepo.Default,
  ModelCatalog.Default,
  AdminToken.Default,
  Documents.Default,
  DocumentsRepo.Default,
  Ingest.Default,
  HybridChunkSearch.layer,
  Articles.Default,
  Catalog.Default,
  ProductIndexer.Default,
  VectorIndexes.Default,
  HybridSearch.layer,
  Synonyms.Default
).pipe(
  Layer.provideMerge(InfrastructureLive)
)

/** The conversation log and curated answers; chat reaches them through the hooks it defines (`Chat/TurnHooks`). */
const ConversationServicesLive = Layer.mergeAll(
  CuratedAnswers.Default,
  Unanswered.Default,
  ConversationLog.Default,
  Retention.Retention.Default
)

/** Chat sits on top: it uses retrieval, product search and transcription from the services above. */
const ChatLive = ChatTurnsLive.layer.pipe(
  Layer.provide(Layer.mergeAll(lookupLayer, observerLayer)),
  Layer.provideMerge(ConversationServicesLive),
  Layer.provideMerge(ServicesLive)
)

/** Messenger channels answer through chat. */
const ChannelsLive = Layer.mergeAll(Connections.Default, Inbox.Default).pipe(Layer.provideMerge(ChatLive))

/** The running service; its services (SQL client included) stay visible to tests. */
export const AppLive = Layer.mergeAll(
  HttpApi.layer,
  LifecycleWorker.layer,
  IngestWorker.layer,
  ChunkReembedder.layer,
  ProductIndexing.layer,
  VectorIndexing.layer,
  ChannelWorker.layer,
  Retention.layer,
  DemoSeed.layer
).pipe(
  Layer.provideMerge(ChannelsLive),
  Layer.provide(Logging.layer),
  Layer.provide(Telemetry.layer),
  Layer.provide(AppConfig.Default)
)
