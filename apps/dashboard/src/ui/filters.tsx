import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useDashboard } from './context.js';

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
