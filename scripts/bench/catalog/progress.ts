/** The benchmark's progress lines on stderr, each with the seconds since it started. */
import { since } from "./stats"

export const started = performance.now()

export const progress = (message: string) => console.error(`[bench +${Math.round(since(started) / 1000)}s] ${message}`)
