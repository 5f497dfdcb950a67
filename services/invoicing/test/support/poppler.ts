import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs a poppler-utils tool on the PDF, written to a file of its own (the tools read files). */
const withPdfFile = async <T>(pdf: Buffer, use: (path: string) => Promise<T>): Promise<T> => {
  const dir = await mkdtemp(join(tmpdir(), 'invoice-pdf-'));
  try {
    const path = join(dir, 'invoice.pdf');
    await writeFile(path, pdf);
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/** A rectangle of the first page in points (1/72 inch) from its top left corner. */
export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The text `pdftotext -layout` reads from the first page, or from one area of it. */
export const popplerText = (pdf: Buffer, area?: Area): Promise<string> =>
  withPdfFile(pdf, async (path) => {
    const crop = area ? ['-x', area.x, '-y', area.y, '-W', area.width, '-H', area.height].map(String) : [];
    const { stdout } = await run('pdftotext', ['-layout', '-f', '1', '-l', '1', ...crop, path, '-']);
    return stdout;
  });

export interface PdfFont {
  name: string;
  type: string;
  embedded: boolean;
}

/** The fonts `pdffonts` lists: a reader without them installed needs each one embedded. */
export const pdfFonts = (pdf: Buffer): Promise<PdfFont[]> =>
  withPdfFile(pdf, async (path) => {
    const { stdout } = await run('pdffonts', [path]);
    // name, type (one or two words), encoding, then emb sub uni as yes/no, then the object id.
    return stdout
      .split('\n')
      .slice(2)
      .filter((line) => line.trim())
      .map((line) => {
        const m = /^(\S+)\s+(.+?)\s{2,}\S+\s+(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.exec(line);
        if (!m) throw new Error(`pdffonts line not understood: ${line}`);
        return { name: m[1]!, type: m[2]!, embedded: m[3] === 'yes' };
      });
  });
