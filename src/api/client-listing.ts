/**
 * Listings of the HTTP client (ApiClient.paged): pages of `offset` and `count` read until a short
 * one, within the client's bounds (ClientOptions.maxListingItems, maxListingBytes), stopped when the
 * server pages wrong (more items than asked, a page repeating the one before, pages without end).
 */
import type {AuditError} from '../model/types.js'
import type {ApiError, PagingOptions, Query, Schedule} from './types.js'

/** The server refuses larger pages (406, onedev-reference.md §1.3). */
export const MAX_PAGE_SIZE = 100

/** Bytes in MiB as a user gives them (`512`, `0.5`). */
function megabytes(bytes: number): string {
  return String(Math.round((bytes / (1024 * 1024)) * 1000) / 1000)
}

/** What a listing needs of the client. */
export interface ListingReads {
  /** GET's parsed JSON and the size of its body (the slot `schedule` gives is held until the answer is read). */
  getJsonSized(path: string, query: Query | undefined, schedule: Schedule | undefined): Promise<{value: unknown; bytes: number}>
  /** The path with the prefix, as messages name it (read when needed: the first page may settle the prefix). */
  fullPath(path: string): string
  fail(error: AuditError): ApiError
}

/** The listings of one client, and the bytes they read so far, all together (maxListingBytes). */
export class Listings {
  private listedBytes = 0

  constructor(
    private readonly reads: ListingReads,
    private readonly bounds: {maxListingItems: number; maxListingBytes: number},
  ) {}

  async paged(path: string, query?: Query, pagingOptions?: PagingOptions): Promise<unknown[]> {
    const {maxListingItems, maxListingBytes} = this.bounds
    const fail = (error: AuditError) => this.reads.fail(error)
    const schedule = pagingOptions?.schedule
    const pageSize = Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(pagingOptions?.pageSize ?? MAX_PAGE_SIZE)))
    const maxPages = pagingOptions?.maxPages ?? 10_000
    // Read when needed: the first page may settle the prefix (the probe).
    const at = () => this.reads.fullPath(path)
    const items: unknown[] = []
    let previous: unknown[] = []
    let previousFirst: string | undefined
    let previousLength = 0
    for (let page = 0; ; page++) {
      if (page >= maxPages) {
        throw fail({
          kind: 'paging',
          message: `GET ${at()}: still full pages after ${maxPages} pages of ${pageSize}; stopped paging`,
          path: at(),
        })
      }
      const {value: data, bytes} = await this.reads.getJsonSized(path, {...query, offset: page * pageSize, count: pageSize}, schedule)
      this.listedBytes += bytes
      if (this.listedBytes > maxListingBytes) {
        throw fail({
          kind: 'paging',
          message: `GET ${at()}: stopped paging at offset ${page * pageSize}: the listings of this run passed ${megabytes(maxListingBytes)} MiB (--max-listing-mb), which bounds the memory they take; a server paging without end, or raise the limit`,
          path: at(),
          status: 200,
        })
      }
      if (!Array.isArray(data)) {
        throw fail({kind: 'invalid-payload', message: `GET ${at()}: expected a JSON array, got ${typeof data === 'object' ? (data === null ? 'null' : 'an object') : typeof data}`, path: at(), status: 200})
      }
      if (data.length > pageSize) {
        throw fail({
          kind: 'paging',
          message: `GET ${at()}: the server returned ${data.length} items for count=${pageSize}; it does not page as expected`,
          path: at(),
          status: 200,
        })
      }
      // A repeat is only possible when the first items agree: compare whole pages only then.
      const first = data.length > 0 ? JSON.stringify(data[0]) : undefined
      if (first !== undefined && first === previousFirst && data.length === previousLength) {
        if (JSON.stringify(data) === JSON.stringify(previous)) {
          throw fail({
            kind: 'paging',
            message: `GET ${at()}: the page at offset ${page * pageSize} repeats the previous page (the server ignores offset); stopped paging`,
            path: at(),
            status: 200,
          })
        }
      }
      previous = data
      previousFirst = first
      previousLength = data.length
      if (items.length + data.length > maxListingItems) {
        throw fail({
          kind: 'paging',
          message: `GET ${at()}: stopped paging at offset ${page * pageSize}: the listing passed ${maxListingItems.toLocaleString('en-US')} items (--max-listing-items); a server paging without end, or raise the limit`,
          path: at(),
          status: 200,
        })
      }
      await pagingOptions?.onPage?.(data)
      for (const item of data) items.push(item)
      if (data.length < pageSize) return items
    }
  }
}
