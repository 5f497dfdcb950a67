/** One named move of a state machine: the statuses it may start from and the one it reaches. */
export interface TransitionSpec<S extends string> {
  from: readonly S[];
  to: S;
}

/** Every named transition of one kind of record, the single source of what may follow what. */
export type TransitionTable<S extends string, N extends string> = Readonly<Record<N, TransitionSpec<S>>>;

/** Declares a transitions table; the status and name types follow from the object. */
export const defineTransitions = <S extends string, N extends string>(
  table: Record<N, TransitionSpec<S>>,
): TransitionTable<S, N> => table;

/** The statuses from which some transition of the table reaches `to`. */
export const statusesLeadingTo = <S extends string, N extends string>(
  table: TransitionTable<S, N>,
  to: S,
): S[] => {
  const from = new Set<S>();
  for (const spec of Object.values<TransitionSpec<S>>(table)) {
    if (spec.to === to) for (const s of spec.from) from.add(s);
  }
  return [...from];
};

/**
 * Where each status may go next, as a status-keyed map (the shape documentation and the old
 * `*_TRANSITIONS` constants use). `statuses` lists every status, so final ones map to `[]`.
 */
export const nextStatuses = <S extends string, N extends string>(
  table: TransitionTable<S, N>,
  statuses: readonly S[],
): Record<S, S[]> => {
  const next = Object.fromEntries(statuses.map((s) => [s, [] as S[]])) as Record<S, S[]>;
  for (const spec of Object.values<TransitionSpec<S>>(table)) {
    for (const s of spec.from) if (spec.to !== s && !next[s].includes(spec.to)) next[s].push(spec.to);
  }
  return next;
};
