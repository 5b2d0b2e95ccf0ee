/** "jane.doe@example.com" → "j•••@example.com": enough for the owner to recognise, too little to harvest. */
export function maskEmail(email: string): string {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${trimmed.slice(0, 1)}•••${trimmed.slice(at)}`;
}
