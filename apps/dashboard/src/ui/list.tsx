import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
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
  pageSize,
  onOffset,
  empty,
  pagedOnly = false,
  children,
}: {
  t: Translate;
  page: { offset: number; total: number };
  shown: number;
  pageSize: number;
  onOffset: (offset: number) => void;
  empty: ComponentChildren;
  pagedOnly?: boolean;
  children: ComponentChildren;
}) => {
  if (shown === 0) return <>{empty}</>;
  return (
    <>
      {children}
      {(!pagedOnly || page.total > pageSize) && (
        <Pager
          t={t}
          offset={page.offset}
          shown={shown}
          total={page.total}
          pageSize={pageSize}
          onOffset={onOffset}
        />
      )}
    </>
  );
};

/** A choice among `options`, or any (the empty value): a list's filter. */
export const ChoiceField = ({
  id,
  label,
  value,
  options,
  onChoose,
  inline = false,
  name,
}: {
  id: string;
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChoose: (value: string) => void;
  inline?: boolean;
  name?: string;
}) => {
  const { t } = useDashboard();
  return (
    <div class={inline ? 'field inline-field' : 'field'}>
      <label for={id}>{label}</label>
      <select id={id} name={name} value={value} onChange={(e) => onChoose(e.currentTarget.value)}>
        <option value="">{t('any')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
};

export const CURRENCY_OPTIONS = [
  { value: 'USDC', label: 'USDC' },
  { value: 'EURC', label: 'EURC' },
] as const;

/**
 * The filters of a list screen: the fields in a grid, then apply, clear and any further action
 * (`actions`, an export), and what went wrong with it (`after`).
 */
export const FilterForm = ({
  onApply,
  onClear,
  actions,
  after,
  children,
}: {
  onApply: () => void;
  onClear: () => void;
  actions?: ComponentChildren;
  after?: ComponentChildren;
  children: ComponentChildren;
}) => {
  const { t } = useDashboard();
  return (
    <form
      class="card filters"
      aria-label={t('filters')}
      onSubmit={(e) => {
        e.preventDefault();
        onApply();
      }}
    >
      <div class="filter-grid">{children}</div>
      <div class="actions">
        <button type="submit">{t('applyFilters')}</button>
        <button type="button" class="secondary" onClick={onClear}>
          {t('clearFilters')}
        </button>
        {actions}
      </div>
      {after}
    </form>
  );
};

/** Where a loaded page of a list stands: its first row, how many match, and how many it holds. */
export interface Paging {
  offset: number;
  total: number;
  shown: number;
}

/** A list loaded a page at a time: loading and failure, then `PagedRows` of what came back. */
export const PagedList = <T,>({
  loaded,
  reload,
  paging,
  pageSize,
  onOffset,
  empty,
  pagedOnly,
  children,
}: {
  loaded: Loaded<T>;
  reload: () => void;
  paging: (data: T) => Paging;
  pageSize: number;
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
          <PagedRows
            t={t}
            page={page}
            shown={shown}
            pageSize={pageSize}
            onOffset={onOffset}
            empty={empty}
            pagedOnly={pagedOnly}
          >
            {shown > 0 && children(data)}
          </PagedRows>
        );
      }}
    </LoadView>
  );
};

type Draft = Partial<Record<string, string>>;

/**
 * The props that bind a filter form's inputs (`field`) and choices (`choice`) to its draft, each
 * id made of `prefix` and the filter's name; an emptied filter is dropped, not sent empty.
 */
export const filterBindings = <D extends Draft>(prefix: string, draft: D, setDraft: (next: D) => void) => ({
  field: (name: keyof D & string) => ({
    id: `${prefix}-${name}`,
    name,
    value: draft[name] ?? '',
    onInput: (e: Event) =>
      setDraft({ ...draft, [name]: (e.currentTarget as HTMLInputElement).value || undefined }),
  }),
  choice: (name: keyof D & string) => ({
    id: `${prefix}-${name}`,
    name,
    value: draft[name] ?? '',
    onChoose: (value: string) => setDraft({ ...draft, [name]: value || undefined }),
  }),
});

/** From and to dates of a list's filters, bound by `filterBindings`' `field`. */
export const DateRangeFields = ({
  field,
}: {
  field: (name: 'startDate' | 'endDate') => JSX.HTMLAttributes<HTMLInputElement> & { id: string };
}) => {
  const { t } = useDashboard();
  const from = field('startDate');
  const to = field('endDate');
  return (
    <>
      <div class="field">
        <label for={from.id}>{t('fromDate')}</label>
        <input {...from} type="date" />
      </div>
      <div class="field">
        <label for={to.id}>{t('toDate')}</label>
        <input {...to} type="date" />
      </div>
    </>
  );
};

/**
 * A filter form's draft of the filters the URL applies (`key` names them). It follows the URL when
 * a link or the back button changes it, but not on the first render: a choice made before that
 * effect would run is kept.
 */
export const useDraft = <D,>(applied: D, key: string) => {
  const [draft, setDraft] = useState(applied);
  const seen = useRef(key);
  useEffect(() => {
    if (seen.current === key) return;
    seen.current = key;
    setDraft(applied);
  }, [key]);
  return [draft, setDraft] as const;
};
