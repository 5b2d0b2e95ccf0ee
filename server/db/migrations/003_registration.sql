-- A sign-up in progress: what the user typed, kept until the emailed code proves the address. One row per
-- attempt (per browser's sign-in), so a second attempt for the same address can never reuse the first one's code.
-- existing_user_id is set when the address already had an account: the attempt is answered exactly like a new
-- one, but it can never create or complete anything.
create table pending_registrations (
  id uuid primary key,
  email text not null,
  email_normalized text not null,
  first_name text not null,
  last_name text not null,
  password_hash text not null,
  attributes jsonb not null default '{}',
  existing_user_id uuid references users (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  resend_available_at timestamptz not null,
  completed_at timestamptz
);
create index pending_registrations_email on pending_registrations (email_normalized, created_at);
create index pending_registrations_expires_at on pending_registrations (expires_at);

-- Email verification codes of a pending registration, stored only as keyed hashes.
create table registration_codes (
  id uuid primary key,
  registration_id uuid not null references pending_registrations (id) on delete cascade,
  email_normalized text not null,
  code_hash text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  consumed_at timestamptz
);
create index registration_codes_registration on registration_codes (registration_id);
create index registration_codes_email on registration_codes (email_normalized, created_at);

-- Wrong registration codes per email address (the account to be), across every browser and server process.
create table registration_code_failures (
  email_normalized text primary key,
  failures integer not null
);

-- An operator created the account; the user completes it (names, password) after proving the address.
alter table users add column pre_registered boolean not null default false;
