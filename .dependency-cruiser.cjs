/**
 * The direction of dependencies (see ARCHITECTURE.md), checked by `pnpm lint`:
 * domain <- server core <- shared services <- features <- composition, one way,
 * a feature reaching another only through its service tag, and no folder cycles.
 */
const src = "^packages/server/src/"
const core = [`${src}(Config|Logging|Telemetry|Ids)\\.ts$`, `${src}(Database|Queue|Platform)/`]
const shared = [`${src}(Search|Accounts|Folders|Models|Assistants|Transcription)/`]
const featureNames = "Products|Documents|Chat|Content|Channels|Admin|System|Conversations|Curated"
const features = [`${src}(${featureNames})/`]
const composition = [`${src}(Http|Bootstrap)/`, `${src}(App|main|Testing)\\.ts$`]
/** What a feature offers the others: its service tags, nothing more. */
const serviceTags = [
  `${src}Products/ProductSearch\\.ts$`,
  `${src}Documents/ChunkSearch\\.ts$`,
  `${src}Chat/ChatTurns\\.ts$`,
  `${src}Chat/TurnHooks\\.ts$`,
  `${src}Curated/CuratedAnswers\\.ts$`,
  `${src}Conversations/ConversationLog\\.ts$`
]

/** @type {import("dependency-cruiser").IConfiguration} */
// eslint-disable-next-line no-undef -- dependency-cruiser reads a CommonJS module
module.exports = {
  forbidden: [
    {
      name: "domain-is-the-ground",
      comment: "domain defines the API once; it imports no other package of the workspace",
      severity: "error",
      from: { path: "^packages/domain/" },
      to: { path: "^packages/(server|sdk|cli)/" }
    },
    {
      name: "clients-not-server",
      comment: "the SDK, the CLI, the console and the widget speak HTTP; they never import the server (tests may start it through Testing)",
      severity: "error",
      from: { path: "^packages/(sdk|cli|console|widget)/src/" },
      to: { path: "^packages/server/" }
    },
    {
      name: "core-below-everything",
      comment: "server core (Config, Database, Queue, Telemetry, Logging, Platform) uses no service, feature or wiring",
      severity: "error",
      from: { path: core },
      to: { path: [...shared, ...features, ...composition] }
    },
    {
      name: "shared-services-below-features",
      comment: "shared services (search, accounts, models, assistants, transcription) know no feature or wiring",
      severity: "error",
      from: { path: shared },
      to: { path: [...features, ...composition] }
    },
    {
      name: "features-below-composition",
      comment: "a feature never imports the wiring (Http/Api, App, demo seed) above it",
      severity: "error",
      from: { path: features },
      to: { path: composition }
    },
    {
      name: "feature-through-service-tag",
      comment: "a feature uses another feature only through its service tag, never its repo or internals",
      severity: "error",
      from: { path: `${src}(${featureNames})/` },
      to: { path: features, pathNot: [`${src}$1/`, ...serviceTags] }
    },
    {
      name: "no-folder-cycles",
      comment: "folders of the server depend on each other one way",
      severity: "error",
      scope: "folder",
      from: { path: `${src}[^/]+` },
      to: { circular: true, viaOnly: { pathNot: "^packages/server/src$" } }
    },
    {
      name: "no-module-cycles",
      comment: "modules import each other one way (a type-only import back is harmless at run time)",
      severity: "error",
      from: { path: "^packages/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["/dist/", "/generated/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] }
  }
}
