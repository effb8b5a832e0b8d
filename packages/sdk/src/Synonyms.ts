/**
 * The promise client's synonym methods: an assistant's multi-way sets and
 * one-way rules, applied to its search at once. All take the assistant's id
 * (`assistantCode`) first.
 */
import type { RawClient } from "./RawClient"
import type { Synonym, SynonymInput, SynonymList } from "./Schemas"
import { unwrap, unwrapNull } from "./Unwrap"

export interface SynonymsClient {
  readonly list: (assistantCode: string) => Promise<SynonymList>
  /** Replaces every set of the assistant; answers with the new list. */
  readonly replace: (assistantCode: string, synonyms: ReadonlyArray<SynonymInput>) => Promise<SynonymList>
  /** A multi-way set (`{synonyms}`) or a one-way rule (`{root, synonyms}`). */
  readonly add: (assistantCode: string, body: SynonymInput) => Promise<Synonym>
  readonly delete: (assistantCode: string, synonymId: string) => Promise<null>
}

export const makeSynonymsClient = (raw: RawClient): SynonymsClient => {
  const onAssistant = (assistantCode: string) => ({ params: { path: { assistantCode } } })
  return {
    list: (assistantCode) => unwrap(raw.GET("/v1/assistants/{assistantCode}/synonyms", onAssistant(assistantCode))),
    replace: (assistantCode, synonyms) =>
      unwrap(
        raw.PUT("/v1/assistants/{assistantCode}/synonyms", {
          ...onAssistant(assistantCode),
          body: { synonyms: [...synonyms] }
        })
      ),
    add: (assistantCode, body) =>
      unwrap(raw.POST("/v1/assistants/{assistantCode}/synonyms", { ...onAssistant(assistantCode), body })),
    delete: (assistantCode, synonymId) =>
      unwrapNull(raw.DELETE("/v1/assistants/{assistantCode}/synonyms/{synonymId}", {
        params: { path: { assistantCode, synonymId } }
      }))
  }
}
