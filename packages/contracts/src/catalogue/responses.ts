import type { z } from 'zod';

/** One success answer of a route: its status, and the JSON body its schema describes. */
type Answer<Status extends number, S extends z.ZodType> = {
  readonly [K in Status]: { readonly description: string; readonly schema: S };
};

/**
 * Builds the `responses` of a route whose one success answer has a JSON body. The status stays a
 * literal key and the schema keeps its own type, so the catalogue's types still find both.
 */
const answer =
  <const Status extends number>(status: Status) =>
  <S extends z.ZodType>(description: string, schema: S): Answer<Status, S> =>
    ({ [status]: { description, schema } }) as Answer<Status, S>;

export const ok = answer(200);
export const created = answer(201);
export const accepted = answer(202);

/**
 * An idempotent create: 201 with what it made, or 200 with what an earlier call with the same
 * natural key (a txHash) already made, in the same body.
 */
export const createdOrExisting = <S extends z.ZodType>(
  createdDescription: string,
  existingDescription: string,
  schema: S,
): Answer<201, S> & Answer<200, S> => ({
  ...created(createdDescription, schema),
  ...ok(existingDescription, schema),
});
