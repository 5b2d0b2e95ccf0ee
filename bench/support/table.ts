/** One figure of a bench's table: what it measures, the value, and its goal when it has one. */
export interface Row {
  section: string;
  figure: string;
  value: string;
  goal?: string;
  met?: boolean;
}

/** Prints `rows` as one plain-text table, each figure beside its goal and whether it is met. */
export function printTable(rows: Row[], write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): void {
  const cells = rows.map((row) => [row.section, row.figure, row.value, row.goal ?? '', row.met === undefined ? '' : row.met ? 'met' : 'NOT met']);
  const header = ['where', 'figure', 'value', 'goal', ''];
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column]!.length)));
  const line = (cell: string[]) => `| ${cell.map((text, column) => text.padEnd(widths[column]!)).join(' | ')} |`;
  write(line(header));
  write(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const cell of cells) write(line(cell));
}
