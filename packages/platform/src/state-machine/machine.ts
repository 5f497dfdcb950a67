import type { Knex } from 'knex';
import { conflict, notFound, type AppError } from '../errors.js';
import type { EventWriter } from '../messaging/outbox.js';
import { writePlannedEvents, type EventPlan } from './events.js';
import { guardedUpdate, type StatusHistory, type TableShape } from './guarded-update.js';
import { statusesLeadingTo, type TransitionTable } from './transitions.js';

type Row = Record<string, unknown>;

/** Why a transition did not apply; the caller decides whether that is an error, a repeat or a no-op. */
export type TransitionRefusal<S extends string, R> =
  /** no record with this id (within the scope) */
  | { kind: 'not_found'; entity: string; transition: string; to: S }
  /** the record already is in the target status: usually a repeated request */
  | { kind: 'already'; entity: string; transition: string; to: S; status: S; current: R }
  /** the record's status may lead to the target, but the caller's extra condition did not hold */
  | { kind: 'condition'; entity: string; transition: string; to: S; status: S; current: R }
  /** the transitions table does not allow this move from the record's status */
  | { kind: 'illegal'; entity: string; transition: string; to: S; status: S; current: R };

/** Whether a guarded transition applied: the moved record, or the reason it did not move. */
export type TransitionOutcome<S extends string, R> =
  { applied: true; record: R } | { applied: false; refusal: TransitionRefusal<S, R> };

/** The HTTP-mappable error of a refusal: 404 for a missing record, 409 for any other. */
export const refusalError = <S extends string, R>(refusal: TransitionRefusal<S, R>): AppError =>
  refusal.kind === 'not_found'
    ? notFound(refusal.entity)
    : conflict(`${refusal.entity} is ${refusal.status} and cannot become ${refusal.to}`);

/** The moved record, or the refusal thrown as its error (`refusalError`). */
export const expectApplied = <S extends string, R>(outcome: TransitionOutcome<S, R>): R => {
  if (outcome.applied) return outcome.record;
  throw refusalError(outcome.refusal);
};

export interface StateMachineDefinition<S extends string, N extends string, R> extends TableShape {
  /** The record's name in errors ("Payment"). */
  entity: string;
  transitions: TransitionTable<S, N>;
  /** Maps a returned row to the service's record type. */
  toRecord: (row: Row) => R;
  /** Writes the events transitions plan; a machine whose transitions announce nothing may omit it. */
  writeEvent?: EventWriter;
  /** A table receiving one row per status change, written by the same statement. */
  history?: StatusHistory;
}

/** Narrowing and effects of one transition call. */
export interface TransitionOptions<S extends string, R> {
  /** Other columns set by the same UPDATE. */
  patch?: Row;
  /** Identity scope checked by the UPDATE and by the refusal's read (`{ merchant_id }`). */
  scope?: Row;
  /** Extra guard conditions of the UPDATE only (`payment_id is null and expires_at <= now()`). */
  when?: (q: Knex.QueryBuilder) => void;
  /** Narrows the table's allowed statuses to these (a step-by-step walk from a known status). */
  from?: readonly S[];
  /** Events to write when the transition applied, in the same transaction. */
  events?: EventPlan<R>;
}

/** Options of a transition applied to every matching record at once (a sweep). */
export interface BatchTransitionOptions<S extends string, R> extends Omit<TransitionOptions<S, R>, 'scope'> {
  /** At most this many records, oldest by `orderBy` first. */
  limit: number;
  orderBy?: string;
  /** Skip rows another transaction holds, so replicas sweeping side by side never wait on each other. */
  skipLocked?: boolean;
}

/** A record kind's state machine bound to its table; see `defineStateMachine`. */
export interface StateMachine<S extends string, N extends string, R> {
  readonly definition: StateMachineDefinition<S, N, R>;
  /** The statuses transition `name` may start from. */
  allowedFrom(name: N): readonly S[];
  /** The statuses from which some transition reaches `to`. */
  statusesLeadingTo(to: S): S[];
  /** Applies transition `name` to one record; events planned by the call are written if it applied. */
  apply(
    db: Knex.Transaction,
    id: string,
    name: N,
    options?: TransitionOptions<S, R>,
  ): Promise<TransitionOutcome<S, R>>;
  /** Applies transition `name` to every record that may take it and meets `when`; the moved records. */
  applyToMany(db: Knex.Transaction, name: N, options: BatchTransitionOptions<S, R>): Promise<R[]>;
  /**
   * Sets columns of a record only while it is in one of `statuses`, without a status change (a
   * fact noted in its current status). Undefined when the record is not in one of them.
   */
  note(
    db: Knex | Knex.Transaction,
    id: string,
    statuses: readonly S[],
    patch: Row,
    scope?: Row,
  ): Promise<R | undefined>;
}

const classify = <S extends string, R>(
  allowed: readonly S[],
  base: { entity: string; transition: string; to: S },
  status: S,
  current: R,
): TransitionRefusal<S, R> => {
  const kind = allowed.includes(status) ? 'condition' : status === base.to ? 'already' : 'illegal';
  return { kind, ...base, status, current };
};

/**
 * A state machine over one table: every status change goes through a named transition of the
 * table, as one guarded `UPDATE … SET status = to WHERE id = ? AND status IN (allowed from)`, so two
 * racing transitions cannot both win; the statement answers whether it applied, and a refusal says
 * why (see `TransitionRefusal`). The events the caller plans are written to the outbox in the same
 * transaction; a `wakingEventWriter` also wakes the relay once it commits.
 */
export const defineStateMachine = <S extends string, N extends string, R>(
  definition: StateMachineDefinition<S, N, R>,
): StateMachine<S, N, R> => {
  const statusColumn = definition.statusColumn ?? 'status';
  const idColumn = definition.idColumn ?? 'id';
  const allowedFrom = (name: N): readonly S[] => definition.transitions[name].from;
  const guardOf = (name: N, narrowed?: readonly S[]) =>
    narrowed ? allowedFrom(name).filter((s) => narrowed.includes(s)) : allowedFrom(name);

  const refusal = async (db: Knex.Transaction, id: string, name: N, allowed: readonly S[], scope?: Row) => {
    const base = { entity: definition.entity, transition: name, to: definition.transitions[name].to };
    const row = (await db(definition.table)
      .where({ ...scope, [idColumn]: id })
      .first()) as Row | undefined;
    if (!row) return { kind: 'not_found' as const, ...base };
    return classify(allowed, base, row[statusColumn] as S, definition.toRecord(row));
  };

  return {
    definition,
    allowedFrom,
    statusesLeadingTo: (to) => statusesLeadingTo(definition.transitions, to),
    async apply(db, id, name, options = {}) {
      const allowed = guardOf(name, options.from);
      const rows = await guardedUpdate(db, definition, {
        from: allowed,
        to: definition.transitions[name].to,
        patch: options.patch,
        filter: (q) => {
          q.where({ ...options.scope, [idColumn]: id });
          options.when?.(q);
        },
      });
      if (!rows[0]) return { applied: false, refusal: await refusal(db, id, name, allowed, options.scope) };
      const record = definition.toRecord(rows[0]);
      await writePlannedEvents(db, definition.writeEvent, options.events, record);
      return { applied: true, record };
    },
    async applyToMany(db, name, options) {
      const rows = await guardedUpdate(db, definition, {
        from: guardOf(name, options.from),
        to: definition.transitions[name].to,
        patch: options.patch,
        filter: (q) => options.when?.(q),
        batch: { limit: options.limit, orderBy: options.orderBy, skipLocked: options.skipLocked },
      });
      const records = rows.map(definition.toRecord);
      for (const record of records) {
        await writePlannedEvents(db, definition.writeEvent, options.events, record);
      }
      return records;
    },
    async note(db, id, statuses, patch, scope) {
      const rows = await guardedUpdate(db, definition, {
        from: statuses,
        patch,
        filter: (q) => q.where({ ...scope, [idColumn]: id }),
      });
      return rows[0] ? definition.toRecord(rows[0]) : undefined;
    },
  };
};
