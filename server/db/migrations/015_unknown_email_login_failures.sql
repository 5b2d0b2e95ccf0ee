-- Failed sign-ins for addresses that have no account, by the HMAC of the normalized address (a key of the server's): counted exactly like
-- login_failures, so an unknown address is throttled, and answered, the same as an existing one.
create table unknown_email_login_failures (
  email_key text primary key,
  failures integer not null,
  last_failure_at timestamptz not null
);
