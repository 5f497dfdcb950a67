import type { ComponentChildren } from 'preact';
import type { Translate } from '../i18n.js';
import { LoadView, Pager } from './common.js';
import { useDashboard } from './context.js';
import type { Loaded } from './use-load.js';

/** A row's or cell's further attributes: a class, and data the tests find it by. */
type Attributes = { class?: string } & { [data: `data-${string}`]: string | number | undefined };

/** One column of a list table: its heading (also each cell's label on narrow screens) and its cell. */
export interface Column<Row> {
  label: string;
  /** a figure: right-aligned, heading and cells */
  num?: boolean;
  cell: (row: Row) => ComponentChildren;
  /** further attributes of the cell (a class, data for the tests) */
  cellProps?: (row: Row) => Attributes;
}

/**
 * Rows as a table on wide screens and as labelled cards on narrow ones (styles.css reads each
 * cell's `data-label`).
 */
export const DataTable = <Row,>({
  caption,
  columns,
  rows,
  rowKey,
  rowProps,
  total,
  tableClass = 'list',
}: {
  caption: string;
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowProps?: (row: Row) => Attributes;
  total?: number;
  tableClass?: string;
}) => (
  <div class="table-wrap">
    <table class={tableClass} data-total={total}>
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.label} scope="col" class={c.num ? 'num' : undefined}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowProps?.(row)}>
            {columns.map((c) => (
              <td
                key={c.label}
                data-label={c.label}
                class={c.num ? 'num' : undefined}
                {...c.cellProps?.(row)}
              >
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);

/**
 * One page of a list: a line saying there is nothing (`empty`), or the rows (`children`) with the
 * pager under them. `pagedOnly` leaves the pager out while everything fits on one page.
 */
const PagedRows = ({
  t,
  page,
  shown,
  onOffset,
  empty,
  pagedOnly = false,
  children,
}: {
  t: Translate;
  page: ListPage;
  shown: number;
  onOffset: (offset: number) => void;
  empty: ComponentChildren;
  pagedOnly?: boolean;
  children: ComponentChildren;
}) => {
  if (shown === 0) return <>{empty}</>;
  return (
    <>
      {children}
      {(!pagedOnly || page.total > page.limit) && (
        <Pager
          t={t}
          offset={page.offset}
          shown={shown}
          total={page.total}
          pageSize={page.limit}
          onOffset={onOffset}
        />
      )}
    </>
  );
};

/**
 * What every page of the gateway's lists answers beside its rows: its first row, how many match,
 * and how many a page holds (the `limit` asked for).
 */
export interface ListPage {
  offset: number;
  total: number;
  limit: number;
}

/** Where a loaded page of a list stands, and how many rows it holds. */
export interface Paging extends ListPage {
  shown: number;
}

/** The paging of a gateway list page holding `rows`. */
export const pagingOf = ({ offset, total, limit }: ListPage, rows: readonly unknown[]): Paging => ({
  offset,
  total,
  limit,
  shown: rows.length,
});

/** A list loaded a page at a time: loading and failure, then `PagedRows` of what came back. */
export const PagedList = <T,>({
  loaded,
  reload,
  paging,
  onOffset,
  empty,
  pagedOnly,
  children,
}: {
  loaded: Loaded<T>;
  reload: () => void;
  paging: (data: T) => Paging;
  onOffset: (offset: number) => void;
  empty: ComponentChildren;
  pagedOnly?: boolean;
  children: (data: T) => ComponentChildren;
}) => {
  const { t } = useDashboard();
  return (
    <LoadView loaded={loaded} t={t} reload={reload}>
      {(data) => {
        const { shown, ...page } = paging(data);
        return (
          <PagedRows t={t} page={page} shown={shown} onOffset={onOffset} empty={empty} pagedOnly={pagedOnly}>
            {shown > 0 && children(data)}
          </PagedRows>
        );
      }}
    </LoadView>
  );
};
