/** One CSV line (RFC 4180): a field is quoted when it holds a quote, a comma or a line break. */
const field = (value: string): string => /[",\r\n]/.test(value) ? `"${value.replaceAll("\"", "\"\"")}"` : value

export const csvLine = (cells: ReadonlyArray<string>): string => `${cells.map(field).join(",")}\r\n`
