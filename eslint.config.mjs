// Lint for the whole workspace: ESLint's and typescript-eslint's recommended rules, Effect's plugin, and the
// 120-character line limit. Formatting itself is dprint's (`pnpm format`); the import direction is
// dependency-cruiser's (`.dependency-cruiser.cjs`); both run under `pnpm lint`.
import js from "@eslint/js"
import effect from "@effect/eslint-plugin"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["**/node_modules", "**/dist", "**/build", "packages/sdk/src/generated/**", "**/*.md"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts", "**/*.mts", "**/*.mjs"],
    plugins: { "@effect": effect },
    rules: {
      "@effect/no-import-from-barrel-package": ["error", { packageNames: ["effect"] }],
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-namespace": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      // Control characters in patterns are deliberate here (binary sniffing, text cleaning).
      "no-control-regex": "off",
      "max-len": ["error", {
        code: 120,
        ignoreUrls: true,
        ignoreStrings: true,
        ignoreTemplateLiterals: true,
        ignoreRegExpLiterals: true
      }]
    }
  },
  {
    // The type checker already reports unknown names in TypeScript (and knows the DOM and Node globals).
    files: ["**/*.ts", "**/*.tsx"],
    rules: { "no-undef": "off" }
  },
  {
    // Where SQL is written (ARCHITECTURE.md, "Where things live"): repos, the database and queue core, and the
    // search and index engines, whose statements are their algorithm. Other server code may only run a
    // transaction (`sql.withTransaction`) around calls to those.
    files: ["packages/server/src/**/*.ts"],
    ignores: [
      "packages/server/src/**/*Repo.ts",
      "packages/server/src/Database/**",
      "packages/server/src/Queue/**",
      "packages/server/src/Search/**",
      "packages/server/src/Products/HybridSearch*.ts",
      "packages/server/src/Products/ProductIndexer.ts",
      "packages/server/src/Products/VectorIndexes.ts",
      "packages/server/src/Documents/HybridChunkSearch.ts",
      "packages/server/src/Documents/ChunkReembedder.ts",
      "packages/server/src/Accounts/CostLedger.ts",
      // Creates and drops each test file's database.
      "packages/server/src/Testing.ts"
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "TaggedTemplateExpression[tag.name='sql']",
          message: "SQL lives in a repo (*Repo.ts) or an engine listed in eslint.config.mjs; call one instead."
        },
        {
          selector: "MemberExpression[object.name='sql'][property.name=/^(unsafe|literal|insert|update|and|or|csv|in)$/]",
          message: "SQL lives in a repo (*Repo.ts) or an engine listed in eslint.config.mjs; call one instead."
        },
        {
          selector: "ImportDeclaration[source.value=/^(pg|@effect\\/sql-pg|@electric-sql\\/pglite.*)$/]",
          message: "Database drivers are reached through Database/ only."
        }
      ]
    }
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", Buffer: "readonly", performance: "readonly" }
    }
  }
)
