-- Password state: a temporary password or an operator's forced reset makes the next sign-in change it.
alter table users add column password_changed_at timestamptz not null default now();
alter table users add column password_temporary boolean not null default false;
alter table users add column reset_required boolean not null default false;

-- One-time codes (password reset now; email verification and MFA later), stored only as keyed hashes.
create table one_time_codes (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null,
  code_hash text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index one_time_codes_user_purpose on one_time_codes (user_id, purpose, created_at);
create index one_time_codes_expires_at on one_time_codes (expires_at);

-- Wrong codes per account and purpose, across every browser and server process.
create table one_time_code_failures (
  user_id uuid not null references users (id) on delete cascade,
  purpose text not null,
  failures integer not null,
  primary key (user_id, purpose)
);

-- Failed sign-ins per account: drives the growing wait after repeated failures.
create table login_failures (
  user_id uuid primary key references users (id) on delete cascade,
  failures integer not null,
  last_failure_at timestamptz not null
);

-- Failed sign-ins per client address in a fixed window, across all accounts.
create table ip_failures (
  ip text primary key,
  window_start timestamptz not null,
  failures integer not null
);

-- Development outbox: mail that would have been sent when no SMTP_URL is configured.
create table mail_outbox (
  id uuid primary key,
  recipient text not null,
  subject text not null,
  text_body text not null,
  created_at timestamptz not null default now()
);
create index mail_outbox_created_at on mail_outbox (created_at);
