/**
 * API key secrets: `dsk_` plus 32 random bytes (base64url). Only a SHA-256 of
 * the key is stored: the keys are random, so a slow hash adds nothing, and a
 * fast one keeps the per-request check to one indexed lookup.
 */
import { createHash, randomBytes } from "node:crypto"

const prefix = "dsk_"
const shape = /^dsk_[A-Za-z0-9_-]{43}$/

export const generate = (): string => prefix + randomBytes(32).toString("base64url")

/** Syntax check of a presented key. */
export const isWellFormed = (key: string): boolean => shape.test(key)

export const hash = (key: string): Buffer => createHash("sha256").update(key).digest()
