// LibreOffice headless and poppler, for looking at the Word export as a person would: a DOCX saved again by
// LibreOffice (the round trip the final version survives) and rendered to PDF and PNG pages. Each run gets its
// own LibreOffice profile, so parallel runs never share one.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export const SOFFICE = '/usr/bin/soffice';
export const PDFTOPPM = '/usr/bin/pdftoppm';
export const INSTALL = 'apt-get install -y libreoffice-writer-nogui poppler-utils';

export const hasLibreOffice = () => existsSync(SOFFICE);
export const hasPoppler = () => existsSync(PDFTOPPM);

/** Converts `file` with LibreOffice headless into `outdir` (docx: saved again; pdf: rendered); returns the path. */
export async function libreOfficeConvert(
  file: string,
  format: 'docx' | 'pdf',
  outdir: string,
): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), 'chambers-lo-'));
  try {
    const r = spawnSync(
      SOFFICE,
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        '--convert-to',
        format,
        '--outdir',
        outdir,
        file,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    const out = join(outdir, `${basename(file).replace(/\.[^.]+$/, '')}.${format}`);
    if (r.status !== 0 || !existsSync(out))
      throw new Error(`soffice --convert-to ${format} failed (${r.status}): ${r.stderr || r.stdout}`);
    return out;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/** Renders a PDF's pages to PNG files `<prefix>-<n>.png` with poppler; returns them in page order. */
export async function pdfPages(pdf: string, prefix: string, dpi = 80): Promise<string[]> {
  const r = spawnSync(PDFTOPPM, ['-png', '-r', String(dpi), pdf, prefix], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`pdftoppm failed (${r.status}): ${r.stderr}`);
  const dir = join(prefix, '..');
  const name = basename(prefix);
  return (await readdir(dir))
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'))
    .sort((a, b) => Number(/-(\d+)\.png$/.exec(a)?.[1]) - Number(/-(\d+)\.png$/.exec(b)?.[1]))
    .map((f) => join(dir, f));
}
