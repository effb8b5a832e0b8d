#!/usr/bin/env node
// Launcher for the `dastyar` bin: the CLI is TypeScript run from source, so
// this registers tsx's ESM loader in this same process and imports the entry.
// tsx resolves from the workspace root's node_modules (a root devDependency).
import { register } from "tsx/esm/api"

register()
await import("../src/bin.ts")
