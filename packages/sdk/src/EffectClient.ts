/**
 * The Effect client, derived from the domain's `HttpApi`: every endpoint as a
 * typed method, the envelope decoded away, errors as the domain's tagged errors.
 */
import { DastyarApi } from "@dastyar/domain"
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import * as Effect from "effect/Effect"

export interface EffectClientOptions {
  readonly baseUrl: string
  /** API key for `/v1`, or the operator token for `/admin/v1`. */
  readonly token?: string | undefined
  readonly language?: string | undefined
}

export const makeEffectClient = (options: EffectClientOptions) =>
  HttpApiClient.make(DastyarApi, {
    baseUrl: options.baseUrl,
    transformClient: HttpClient.mapRequest((request) => {
      const withToken = options.token === undefined ? request : HttpClientRequest.bearerToken(request, options.token)
      return options.language === undefined
        ? withToken
        : HttpClientRequest.setHeader(withToken, "accept-language", options.language)
    })
  })

export type EffectClient = Effect.Effect.Success<ReturnType<typeof makeEffectClient>>
