/**
 * RFC 4180 CSV. A cell that a spreadsheet would run as a formula (starting with =, +, -, @, tab or
 * carriage return) is prefixed with an apostrophe: payer-supplied text (a reference, an e-mail)
 * must not become code in the merchant's spreadsheet.
 */
const cell = (value: unknown): string => {
  let text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export const toCsv = <T extends object>(
  columns: ReadonlyArray<keyof T & string>,
  rows: readonly T[],
): string =>
  [columns.join(','), ...rows.map((row) => columns.map((c) => cell(row[c])).join(','))].join('\r\n') + '\r\n';

/** Saves text as a file through a blob: link (no server round trip, nothing leaves the page). */
export const saveFile = (name: string, type: string, content: BlobPart) => {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
};
