#!/usr/bin/env node
// The workspace's `dastyar` bin: runs the compiled CLI (`pnpm build` writes
// dist/, the files published with the package).
await import("../dist/dastyar.js")
