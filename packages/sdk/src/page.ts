/** What every paged list answers: its items under a name, and where the page is in the whole. */
export interface PageCounts {
  total: number;
  limit: number;
  offset: number;
}

/**
 * One page of a list, and an async iterator over the items of every page from this one on:
 * `for await (const payment of await stablepay.payments.list())` walks them all, fetching each next
 * page when the previous one is used up. `pages()` walks the pages themselves.
 */
export class Page<T> implements AsyncIterable<T> {
  readonly total: number;
  readonly limit: number;
  readonly offset: number;

  constructor(
    readonly data: T[],
    counts: PageCounts,
    private readonly fetchAt: (offset: number) => Promise<Page<T>>,
  ) {
    this.total = counts.total;
    this.limit = counts.limit;
    this.offset = counts.offset;
  }

  get hasMore(): boolean {
    return this.data.length > 0 && this.offset + this.data.length < this.total;
  }

  /** The next page, or undefined after the last. */
  async next(): Promise<Page<T> | undefined> {
    return this.hasMore ? this.fetchAt(this.offset + this.data.length) : undefined;
  }

  async *pages(): AsyncGenerator<Page<T>> {
    yield this;
    for (let page = await this.next(); page; page = await page.next()) yield page;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.data;
  }
}

/** Fetches one page of a list whose items sit under `items`, at an offset. */
export const pager = <T, Q extends { offset?: number }>(
  items: string,
  query: Q,
  fetchPage: (query: Q) => Promise<unknown>,
): Promise<Page<T>> => {
  const at = async (offset: number | undefined): Promise<Page<T>> => {
    const answer = (await fetchPage({
      ...query,
      ...(offset === undefined ? {} : { offset }),
    })) as PageCounts & Record<string, T[]>;
    return new Page<T>(answer[items] ?? [], answer, (next) => at(next));
  };
  return at(query.offset);
};
