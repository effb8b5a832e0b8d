/**
 * The layer graph of the whole service, shared by `main.ts` and the tests:
 * configuration → database (migrated) → durable queue → services → HTTP app
 * and background workers. Only the `HttpServer` is left open.
 */
import * as Layer from "effect/Layer"
import { AccountsRepo } from "./Accounts/AccountsRepo"
import { Assistants } from "./Assistants/Assistants"
import * as LifecycleWorker from "./Assistants/LifecycleWorker"
import { AdminToken } from "./Bootstrap/AdminToken"
import * as ChannelWorker from "./Channels/ChannelWorker"
import { Connections } from "./Channels/Connections"
import { Inbox } from "./Channels/Inbox"
import { Articles } from "./Content/Articles"
import * as DemoSeed from "./Bootstrap/DemoSeed"
import { AppConfig } from "./Config"
import * as Database from "./Database/Database"
import * as Migrator from "./Database/Migrator"
import { Documents } from "./Documents/Documents"
import { DocumentsRepo } from "./Documents/DocumentsRepo"
import * as HybridChunkSearch from "./Documents/HybridChunkSearch"
import { Ingest } from "./Documents/Ingest"
import * as IngestWorker from "./Documents/IngestWorker"
import { FoldersRepo } from "./Folders/FoldersRepo"
import * as HttpApi from "./Http/Api"
import { ModelCatalog } from "./Models/ModelCatalog"
import * as Logging from "./Logging"
import * as Queue from "./Queue/Queue"
import * as Embedders from "./Search/Embedders"
import * as Telemetry from "./Telemetry"
import * as Transcribers from "./Transcription/Transcribers"

const DatabaseLive = Migrator.layer.pipe(Layer.provideMerge(Database.layer))

const ServicesLive = Layer.mergeAll(
  Assistants.Default,
  AccountsRepo.Default,
  FoldersRepo.Default,
  ModelCatalog.Default,
  AdminToken.Default,
  Documents.Default,
  DocumentsRepo.Default,
  Ingest.Default.pipe(Layer.provide(Transcribers.layer), Layer.provide(Embedders.layer)),
  HybridChunkSearch.layer.pipe(Layer.provide(Embedders.layer)),
  Transcribers.layer,
  Articles.Default,
  Embedders.layer
).pipe(
  Layer.provideMerge(Queue.layer),
  Layer.provideMerge(DatabaseLive)
)

/** Messenger channels answer through chat (`ChatTurns`). */
const ChannelsLive = Layer.mergeAll(Connections.Default, Inbox.Default).pipe(Layer.provideMerge(ServicesLive))

/** The running service; its services (SQL client included) stay visible to tests. */
export const AppLive = Layer.mergeAll(HttpApi.layer, LifecycleWorker.layer, IngestWorker.layer, ChannelWorker.layer, DemoSeed.layer).pipe(
  Layer.provideMerge(ChannelsLive),
  Layer.provide(Logging.layer),
  Layer.provide(Telemetry.layer),
  Layer.provide(AppConfig.Default)
)
