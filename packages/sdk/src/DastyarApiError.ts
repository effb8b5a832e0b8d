/**
 * The one error the promise client throws for every non-2xx answer, read from
 * the envelope `{data: null, response: {status, message, code?}, fields?}`.
 */
import { retryAfterSeconds } from "./RetryAfter"
import type { FieldError } from "./Schemas"

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const isFieldError = (value: unknown): value is FieldError =>
  isRecord(value) && typeof value.property === "string" && Array.isArray(value.constraints) &&
  value.constraints.every((constraint) => typeof constraint === "string")

export interface DastyarApiErrorInit {
  readonly httpStatus: number
  readonly status: string
  readonly code: string | undefined
  readonly message: string
  readonly fields: ReadonlyArray<FieldError>
  readonly retryAfter: number | undefined
}

export class DastyarApiError extends Error implements DastyarApiErrorInit {
  override readonly name = "DastyarApiError"
  /** The HTTP status; the only way to recognise 401 and 429, whose `status` is `bad_request`. */
  readonly httpStatus: number
  /**
   * The envelope's `response.status` (`bad_request`, `not_found`, `conflict`, …),
   * or `unknown` when the body was not an envelope (e.g. a proxy's error page).
   */
  readonly status: string
  /** The named rule (`assistants.not_found`, …); undefined for validation errors and 429. */
  readonly code: string | undefined
  /** One element per invalid field on validation errors; empty otherwise. */
  readonly fields: ReadonlyArray<FieldError>
  /** Seconds to wait before retrying (from `Retry-After`, sent with 429). */
  readonly retryAfter: number | undefined

  constructor(init: DastyarApiErrorInit) {
    super(init.message)
    this.httpStatus = init.httpStatus
    this.status = init.status
    this.code = init.code
    this.fields = init.fields
    this.retryAfter = init.retryAfter
  }

  /** Builds the error from a response and its already-parsed body (JSON, text or undefined). */
  static fromResponse(response: Response, body: unknown): DastyarApiError {
    const envelope = isRecord(body) && isRecord(body.response) ? body.response : undefined
    const fields = isRecord(body) && Array.isArray(body.fields) ? body.fields.filter(isFieldError) : []
    return new DastyarApiError({
      httpStatus: response.status,
      status: typeof envelope?.status === "string" ? envelope.status : "unknown",
      code: typeof envelope?.code === "string" ? envelope.code : undefined,
      message: typeof envelope?.message === "string"
        ? envelope.message
        : `HTTP ${response.status} ${response.statusText}`.trim(),
      fields,
      retryAfter: retryAfterSeconds(response.headers)
    })
  }
}
