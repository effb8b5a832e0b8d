/** Every environment variable the server reads, validated once at start. */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"

/** The shortest operator token the server accepts in `DASTYAR_ADMIN_TOKEN`. */
export const minAdminTokenLength = 32

export class AppConfig extends Effect.Service<AppConfig>()("AppConfig", {
  effect: Config.all({
    port: Config.port("PORT").pipe(Config.withDefault(3000)),
    /** Address to listen on: `0.0.0.0` (all IPv4 interfaces), `::` for IPv6 too, `127.0.0.1` for this machine only. */
    host: Config.string("HOST").pipe(Config.withDefault("0.0.0.0")),
    server: Config.all({
      /** A client must send its request headers within this time (slow-header clients are cut off). */
      headersTimeout: Config.duration("DASTYAR_HEADERS_TIMEOUT").pipe(Config.withDefault(Duration.seconds(10))),
      /** A client must send its whole request (an upload included) within this time. */
      requestTimeout: Config.duration("DASTYAR_REQUEST_TIMEOUT").pipe(Config.withDefault(Duration.minutes(5))),
      /** An idle keep-alive connection is closed after this time. */
      keepAliveTimeout: Config.duration("DASTYAR_KEEP_ALIVE_TIMEOUT").pipe(Config.withDefault(Duration.seconds(5))),
      /** On SIGTERM, how long requests in flight may take to finish before they are cut. */
      shutdownTimeout: Config.duration("DASTYAR_SHUTDOWN_TIMEOUT").pipe(Config.withDefault(Duration.seconds(10)))
    }),
    databaseUrl: Config.option(Config.redacted("DATABASE_URL")),
    databasePoolSize: Config.integer("DASTYAR_DB_POOL_SIZE").pipe(Config.withDefault(10)),
    /** Streaming replicas for reads that may lag a little (search, chunk retrieval, lists), comma-separated. */
    databaseReplicaUrls: Config.redacted("DATABASE_REPLICA_URLS").pipe(
      Config.withDefault(Redacted.make("")),
      Config.map((urls) => Redacted.value(urls).split(",").map((url) => url.trim()).filter((url) => url !== ""))
    ),
    /** A replica further behind than this (or down) is skipped until it catches up. */
    databaseReplicaMaxLag: Config.duration("DATABASE_REPLICA_MAX_LAG").pipe(Config.withDefault(Duration.seconds(5))),
    dataDir: Config.string("DASTYAR_DATA_DIR").pipe(Config.withDefault("./.dastyar")),
    /** The operator token; a short (or empty) one would be guessable, so the server refuses to start with it. */
    adminToken: Config.option(Config.redacted("DASTYAR_ADMIN_TOKEN")).pipe(
      Config.mapOrFail((token) =>
        Option.exists(token, (value) => Redacted.value(value).length < minAdminTokenLength)
          ? Either.left(ConfigError.InvalidData(
            ["DASTYAR_ADMIN_TOKEN"],
            `must be at least ${minAdminTokenLength} characters (e.g. \`openssl rand -base64 32\`)`
          ))
          : Either.right(token)
      )
    ),
    rateLimitPerMinute: Config.integer("DASTYAR_RATE_LIMIT_PER_MINUTE").pipe(
      Config.validate({ message: "must be a positive integer", validation: (n) => n > 0 }),
      Config.withDefault(60)
    ),
    /** Public content routes: requests per minute per client IP, one count for all of them. */
    contentRateLimitPerMinute: Config.integer("DASTYAR_CONTENT_RATE_LIMIT_PER_MINUTE").pipe(
      Config.validate({ message: "must be a positive integer", validation: (n) => n > 0 }),
      Config.withDefault(1200)
    ),
    /** Proxy hops in front of the service; only then is the client IP read from `X-Forwarded-For`. */
    trustProxy: Config.integer("DASTYAR_TRUST_PROXY").pipe(
      Config.validate({ message: "must be the number of proxy hops (0 or more)", validation: (n) => n >= 0 }),
      Config.withDefault(0)
    ),
    /** The service's public address; messenger hook URLs are built on it. */
    publicUrl: Config.option(Config.string("DASTYAR_PUBLIC_URL")),
    /** 32 bytes (base64 or 64 hex characters) encrypting messenger secrets at rest. */
    secretKey: Config.option(Config.redacted("DASTYAR_SECRET_KEY")),
    /** Keys replaced by `DASTYAR_SECRET_KEY`, comma-separated: what they sealed still opens (key rotation). */
    secretKeyPrevious: Config.option(Config.redacted("DASTYAR_SECRET_KEY_PREVIOUS")),
    /** The Telegram Bot API, or a self-hosted Bot API server (and tests' stand-in). */
    telegramApiBase: Config.string("DASTYAR_TELEGRAM_API_BASE").pipe(Config.withDefault("https://api.telegram.org")),
    /** Bale's Bot API (Telegram's protocol on Bale), or a test stand-in. */
    baleApiBase: Config.string("DASTYAR_BALE_API_BASE").pipe(Config.withDefault("https://tapi.bale.ai")),
    /** WhatsApp Cloud API: the Graph API's address and version. */
    whatsapp: Config.all({
      apiBase: Config.string("DASTYAR_WHATSAPP_API_BASE").pipe(Config.withDefault("https://graph.facebook.com")),
      apiVersion: Config.string("DASTYAR_WHATSAPP_API_VERSION").pipe(
        Config.validate({ message: "must look like v24.0", validation: (v) => /^v\d+\.\d+$/.test(v) }),
        Config.withDefault("v24.0")
      )
    }),
    /** Messenger API calls during an outage (5xx, timeouts, 429): attempts per call and the first backoff delay. */
    channelRetry: Config.all({
      attempts: Config.integer("DASTYAR_CHANNEL_RETRY_ATTEMPTS").pipe(
        Config.validate({ message: "must be between 1 and 20", validation: (n) => n >= 1 && n <= 20 }),
        Config.withDefault(6)
      ),
      baseDelay: Config.duration("DASTYAR_CHANNEL_RETRY_DELAY").pipe(Config.withDefault(Duration.millis(500)))
    }),
    /** Messenger hooks: requests per minute per connection. */
    hookRateLimitPerMinute: Config.integer("DASTYAR_HOOK_RATE_LIMIT_PER_MINUTE").pipe(
      Config.validate({ message: "must be a positive integer", validation: (n) => n > 0 }),
      Config.withDefault(600)
    ),
    /** Webhook callbacks may go to private networks and loopback (never link-local, multicast or unspecified). */
    webhookAllowPrivate: Config.boolean("DASTYAR_WEBHOOK_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
    configFile: Config.option(Config.string("DASTYAR_CONFIG")),
    redisUrl: Config.option(Config.string("REDIS_URL")),
    seedDemo: Config.boolean("DASTYAR_SEED_DEMO").pipe(Config.withDefault(true)),
    logLevel: Config.logLevel("DASTYAR_LOG_LEVEL").pipe(Config.withDefault(LogLevel.Info)),
    /** Product search on or off for the deployment; writes and reads work either way. */
    searchEnabled: Config.boolean("DASTYAR_SEARCH_ENABLED").pipe(Config.withDefault(true)),
    /**
     * Assistants with at least this many products get an HNSW index of their own (Products/VectorIndexes.ts);
     * unset: 5,000 on Postgres, none in embedded mode.
     */
    vectorIndexMinProducts: Config.option(
      Config.integer("DASTYAR_VECTOR_INDEX_MIN_PRODUCTS").pipe(
        Config.validate({ message: "must be a positive integer", validation: (n) => n > 0 })
      )
    ),
    /** An OpenAI-compatible `/v1/embeddings` provider; the built-in offline embedder when unset. */
    embeddings: Config.all({
      baseUrl: Config.option(Config.string("DASTYAR_EMBEDDINGS_BASE_URL")),
      model: Config.string("DASTYAR_EMBEDDINGS_MODEL").pipe(Config.withDefault("text-embedding-3-small")),
      apiKey: Config.option(Config.redacted("DASTYAR_EMBEDDINGS_API_KEY")),
      dimensions: Config.option(Config.integer("DASTYAR_EMBEDDINGS_DIMENSIONS")),
      batchSize: Config.integer("DASTYAR_EMBEDDINGS_BATCH_SIZE").pipe(Config.withDefault(64))
    }),
    /** An OpenAI-compatible `/v1/audio/transcriptions` provider (audio documents); audio jobs fail when unset. */
    transcription: Config.all({
      baseUrl: Config.option(Config.string("DASTYAR_TRANSCRIPTION_BASE_URL")),
      model: Config.string("DASTYAR_TRANSCRIPTION_MODEL").pipe(Config.withDefault("whisper-1")),
      apiKey: Config.option(Config.redacted("DASTYAR_TRANSCRIPTION_API_KEY"))
    }),
    /** Document ingest: worker fibers per instance, first backoff delay for transient failures, time limit per job. */
    ingest: Config.all({
      workers: Config.integer("DASTYAR_INGEST_WORKERS").pipe(
        Config.validate({ message: "must be a positive integer", validation: (n) => n > 0 }),
        Config.withDefault(2)
      ),
      retryDelay: Config.duration("DASTYAR_INGEST_RETRY_DELAY").pipe(Config.withDefault(Duration.seconds(5))),
      timeout: Config.duration("DASTYAR_INGEST_TIMEOUT").pipe(Config.withDefault(Duration.minutes(15)))
    }),
    /**
     * Reading one uploaded file: a thread with this heap limit and time limit, and budgets on what a file may
     * inflate to, so that no file can take the server down (see `Documents/Extraction/Budget.ts`).
     */
    extraction: Config.all({
      memoryMb: Config.integer("DASTYAR_EXTRACTION_MEMORY_MB").pipe(
        Config.validate({ message: "must be at least 64", validation: (n) => n >= 64 }),
        Config.withDefault(512)
      ),
      timeout: Config.duration("DASTYAR_EXTRACTION_TIMEOUT").pipe(Config.withDefault(Duration.minutes(2))),
      budget: Config.all({
        maxInflatedBytes: Config.integer("DASTYAR_EXTRACTION_MAX_INFLATED_MB").pipe(
          Config.withDefault(200),
          Config.map((megabytes) => megabytes * 1024 * 1024)
        ),
        maxPages: Config.integer("DASTYAR_EXTRACTION_MAX_PAGES").pipe(Config.withDefault(5_000)),
        maxTextChars: Config.integer("DASTYAR_EXTRACTION_MAX_TEXT_CHARS").pipe(Config.withDefault(50_000_000)),
        maxPixels: Config.integer("DASTYAR_EXTRACTION_MAX_PIXELS").pipe(Config.withDefault(50_000_000))
      })
    }),
    chat: Config.all({
      /** Chunks scoring below this (0..1) are not given to the model, so unrelated questions get no sources. */
      minRelevance: Config.number("DASTYAR_CHAT_MIN_RELEVANCE").pipe(
        Config.validate({ message: "must be between 0 and 1", validation: (n) => n >= 0 && n <= 1 }),
        Config.withDefault(0.35)
      ),
      /** Token budget of earlier messages sent with each turn (newest first; older ones are summarised). */
      historyTokens: Config.integer("DASTYAR_CHAT_HISTORY_TOKENS").pipe(
        Config.validate({ message: "must be 0 or more", validation: (n) => n >= 0 }),
        Config.withDefault(3000)
      )
    })
  })
}) {}
