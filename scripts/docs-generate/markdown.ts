/** Text made safe for one cell of a markdown table: pipes escaped, line breaks folded. */
export function tableCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}
