-- Second factors. A factor counts only once confirmed (its first code entered); until then it is a setup in progress.
-- email: the account's address; sms: a phone number (E.164); totp: a secret sealed with the master key.
create table mfa_factors (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  kind text not null check (kind in ('email', 'sms', 'totp')),
  phone text,
  secret_sealed text,
  confirmed_at timestamptz,
  -- TOTP: the last time step accepted; a code of that step or an earlier one is refused (no replay).
  last_used_step bigint,
  -- TOTP: wrong codes in a row, and when the last was entered (the factor rests after too many).
  failures integer not null default 0,
  last_failure_at timestamptz,
  created_at timestamptz not null default now()
);
create index mfa_factors_user on mfa_factors (user_id);
create unique index mfa_factors_one_confirmed_per_kind on mfa_factors (user_id, kind) where confirmed_at is not null;

-- Where and when each channel's last second-factor code went, and when another may be sent.
create table mfa_code_deliveries (
  user_id uuid not null references users (id) on delete cascade,
  channel text not null check (channel in ('email', 'sms')),
  destination text not null,
  sent_at timestamptz not null,
  resend_available_at timestamptz not null,
  primary key (user_id, channel)
);
