/**
 * English texts: the reference catalog. Every other language must provide the
 * same keys (enforced by the `Catalog` type), so adding a language is adding one file.
 * `{name}` placeholders are filled from the constraint or error parameters.
 */
export const en = {
  // envelope messages
  "success": "Success",
  "validation.failed": "Validation failed",
  "request.malformed_json": "The request body is not valid JSON",
  "request.too_deep": "The request body is nested too deeply",
  "request.unsupported_content_type": "Unsupported content type: send application/json (or multipart/form-data for file uploads)",
  "request.payload_too_large": "The request body is too large",
  "request.too_many_parts": "Too many files or fields in the upload",
  "route.not_found": "No such route",
  "endpoint.not_implemented": "This endpoint is not implemented yet",
  "internal.error": "Internal server error",
  "service.not_ready": "The service is starting or cannot reach its database",
  "rate_limit.exceeded": "ThrottlerException: Too Many Requests",
  "api_key.invalid": "Invalid or revoked API key",
  "admin_token.invalid": "Invalid operator token",
  "assistants.not_found": "Assistant not found",
  "accounts.not_found": "Account not found",
  "keys.not_found": "API key not found",
  "plans.not_found": "No such plan",
  "models.not_usable": "This model is not available on the account's plan",
  "folders.not_found": "Folder not found",
  "folders.name_taken": "The account already has a folder with this name",
  "chat.assistant_not_found": "Assistant not found",
  "chat.model_unavailable": "The assistant's model is not available right now; select a usable model and retry",
  "chat.voice_disabled": "This assistant does not accept voice messages",
  "documents.unsupported_file_type": "Unsupported file type",
  "products.external_id_taken": "A product with this externalId already exists; use PUT to upsert",
  "products.not_found": "Product not found",
  "products.duplicate_external_id": "The same externalId appears more than once in this import",
  "products.limit_reached": "The product catalog limit has been reached",
  "products.search_unavailable": "Product search is not available in this environment",
  // validation constraints
  "constraint.required": "is required",
  "constraint.invalid": "has an invalid value",
  "constraint.type.string": "must be a string",
  "constraint.type.number": "must be a number",
  "constraint.type.integer": "must be an integer",
  "constraint.type.boolean": "must be a boolean",
  "constraint.type.object": "must be an object",
  "constraint.type.array": "must be an array",
  "constraint.oneOf": "must be one of: {values}",
  "constraint.minLength": "must be at least {min} characters long",
  "constraint.maxLength": "must be at most {max} characters long",
  "constraint.nonEmpty": "must not be empty",
  "constraint.minItems": "must contain at least {min} items",
  "constraint.maxItems": "must contain at most {max} items",
  "constraint.maxEntries": "must have at most {max} entries",
  "constraint.min": "must be {min} or more",
  "constraint.max": "must be {max} or less",
  "constraint.pattern": "has an invalid format",
  "constraint.folderId": "must be 32 lowercase hexadecimal characters",
  "constraint.filename": "must be a plain file name with an extension and no path separator",
  "constraint.externalId": "must be 1 to 191 characters with no whitespace, '/' or '\\'",
  "constraint.url": "must be an http(s) address of at most 2048 characters",
  "constraint.reservedAttribute": "uses a reserved attribute name ({name}); use the product field instead",
  "constraint.attributeValue": "must be a string of at most 500 characters, a number or a boolean",
  "constraint.cursor": "is not a valid cursor",
  "constraint.json": "must be valid JSON"
} as const

export type MessageKey = keyof typeof en
export type Catalog = { readonly [K in MessageKey]: string }
