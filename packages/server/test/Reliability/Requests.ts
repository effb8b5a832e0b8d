/**
 * One API request as the reliability clients send it: a JSON or multipart body, a minute at most, the answer's
 * body parsed as JSON when it is JSON. A transport error (refused, reset, timed out) is thrown for the caller to
 * count as a cut request or to try elsewhere.
 */
export const requestOnce = async (base: string, method: string, path: string, token: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined || body instanceof FormData ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
    signal: AbortSignal.timeout(60_000)
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = text
  }
  return { status: response.status, json }
}

/** What a cut request's error says: its cause when it has one (fetch wraps the socket's error). */
export const cutReason = (error: unknown) => String(error instanceof Error && error.cause ? error.cause : error)
