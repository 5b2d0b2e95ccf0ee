/** Codes that look like six digits to a person but are not six ASCII digits: full-width, Arabic-Indic, Devanagari, a combining mark, a hidden space, a NUL. */
export const NOT_ASCII_CODES = ['１２３４５６', '١٢٣٤٥٦', '۱۲۳۴۵۶', '१२३४५६', '12345\u0301', '1\u200b23456', '123456\u0000'];
