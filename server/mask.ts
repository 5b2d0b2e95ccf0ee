/** "jane.doe@example.com" → "j•••@example.com": enough for the owner to recognise, too little to harvest. */
export function maskEmail(email: string): string {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${trimmed.slice(0, 1)}•••${trimmed.slice(at)}`;
}

/** "+4915112345678" → "•••5678": the last four digits, as phones and banks show them. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `•••${digits.slice(-4)}`;
}
