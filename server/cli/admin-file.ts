/** The file in DATA_DIR where a running server tells the CLI how to reach its admin API (mode 0600). */
export const ADMIN_FILE_NAME = 'admin.json';
