/**
 * Product feeds (CSV, JSON, JSON Lines) read and checked before anything is
 * sent: the one reader the CLI's `products import` and the console's import
 * share, so a file is understood, and refused, the same way in both.
 */
export { type CheckedFeed, checkFeed } from "./ProductFeed/Check"
export { asAttribute, csvProducts, type CsvRecord, productColumns } from "./ProductFeed/Csv"
export { elementLines, lineAt } from "./ProductFeed/JsonPositions"
export {
  type Feed,
  type FeedColumn,
  type FeedFormat,
  feedFormats,
  type FeedRow,
  FeedUnreadable,
  formatOfName,
  readFeed,
  type RowProblem
} from "./ProductFeed/Read"
