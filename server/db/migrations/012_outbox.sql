-- The durable outbox: mail and texts are written here in the transaction of the event that causes them, and a
-- worker in any server process sends them. The message (address and text, which may hold a code) is sealed with
-- the master key. A claim is a lease (lease_until), so a process that dies mid-send only delays the message.
create table outbox (
  id uuid primary key,
  channel text not null check (channel in ('mail', 'sms')),
  payload_sealed text not null,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_until timestamptz,
  last_error text,
  sent_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz not null default now(),
  -- Set once the message is sent or given up, so cleanup can delete it later.
  expires_at timestamptz
);
create index outbox_due on outbox (next_attempt_at) where sent_at is null and failed_at is null;
create index outbox_expires_at on outbox (expires_at) where expires_at is not null;
