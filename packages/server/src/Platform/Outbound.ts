/**
 * The HTTP client for calls the service makes to upstreams (embeddings, chat
 * models, transcription, messenger APIs). Provided to those services only, so
 * it never replaces the client a test aims at the service itself.
 */
import { NodeHttpClient } from "@effect/platform-node"

export const layer = NodeHttpClient.layerUndici
