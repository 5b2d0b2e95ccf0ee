-- The audit trail: what happened to an account's security (sign-ins, failures, lockouts, factors, passwords,
-- sessions, operator actions), when, and from which address and browser. Kept when the account goes, so an
-- operator can still read what happened to it.
create table security_events (
  -- Increasing, so events of the same instant keep the order they happened in.
  id bigint generated always as identity primary key,
  user_id uuid references users (id) on delete set null,
  kind text not null,
  occurred_at timestamptz not null,
  ip text,
  user_agent text,
  detail jsonb not null default '{}'
);
-- "The last 50 events of a user", newest first.
create index security_events_user_recent on security_events (user_id, occurred_at desc, id desc);
-- "Everything since a time", for the operator's audit.
create index security_events_occurred_at on security_events (occurred_at);
