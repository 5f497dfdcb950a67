/** The generated configuration reference, between its markers and the markers included. */
export function renderReference(): Promise<string>;
/** docs/operations.md as it is, and where its generated reference starts and ends. */
export function currentReference(): { doc: string; start: number; end: number };
