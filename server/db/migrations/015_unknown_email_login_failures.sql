-- Failed sign-ins for addresses that have no account, by the SHA-256 of the normalized address: counted exactly like
-- login_failures, so an unknown address is throttled, and answered, the same as an existing one.
create table unknown_email_login_failures (
  email_key text primary key,
  failures integer not null,
  last_failure_at timestamptz not null
);
