/**
 * How each table would be spread over a Citus cluster (docs/operations.md,
 * "Many shops and several machines"), written once: a distributed table by
 * its tenant column, a reference table copied whole to every node, or a
 * table kept on the coordinator alone. `test/Database/Distribution.test.ts`
 * reads the schema from the catalog and holds it to this plan, so a new
 * table or constraint cannot silently break it.
 */

export type Placement =
  | { readonly distributedBy: "assistant_id" | "account_id" }
  | { readonly reference: true }
  | { readonly coordinator: true }

const byAssistant: Placement = { distributedBy: "assistant_id" }
const byAccount: Placement = { distributedBy: "account_id" }
const reference: Placement = { reference: true }
const coordinator: Placement = { coordinator: true }

/**
 * Every table. The per-shop data (catalog, knowledge, chat, channel traffic)
 * goes by assistant, so one shop's reads and writes stay on one node and its
 * foreign keys stay inside one shard. Small, often-joined tables every shard
 * needs (accounts, assistants, keys looked up by their hash, connections looked
 * up by their code from a webhook) are reference tables.
 */
export const distribution: Readonly<Record<string, Placement>> = {
  accounts: reference,
  api_keys: reference,
  assistants: reference,
  folders: reference,
  articles: reference,
  channel_connections: reference,
  web_connections: reference,

  products: byAssistant,
  search_terms: byAssistant,
  document_jobs: byAssistant,
  document_upload_pieces: byAssistant,
  documents: byAssistant,
  document_chunks: byAssistant,
  conversations: byAssistant,
  chat_messages: byAssistant,
  message_feedback: byAssistant,
  question_groups: byAssistant,
  unanswered_questions: byAssistant,
  curated_answers: byAssistant,
  search_synonyms: byAssistant,
  channel_updates: byAssistant,
  channel_conversations: byAssistant,
  channel_unanswered: byAssistant,

  // What was spent stays with the account after its assistant is deleted (no key to assistants).
  cost_ledger: byAccount,

  // The queue's claim is `FOR UPDATE SKIP LOCKED` over one table, which Citus runs only on one node:
  // it stays a plain table on the coordinator, in the same transactions as the rows it is offered with.
  dastyar_queue: coordinator,
  effect_sql_migrations: coordinator
}

/**
 * Constraints that do not carry their table's key yet, by name: changing these
 * primary keys means changing every lookup by id alone (and the foreign keys
 * that point at them), which is not done. Citus needs each one fixed before
 * `create_distributed_table`; the list may only shrink.
 */
export const knownExceptions: ReadonlyArray<string> = [
]
