/** Random identifiers: a readable prefix and enough entropy that they cannot be guessed. */
import { randomBytes } from "node:crypto"

export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString("hex")}`

/** 32 lowercase hexadecimal characters, the spec's folder identifier format. */
export const newHexId = (): string => randomBytes(16).toString("hex")
