-- An email change waiting for its code: the new address counts only once the code sent there is entered.
create table email_changes (
  user_id uuid primary key references users (id) on delete cascade,
  new_email text not null,
  expires_at timestamptz not null
);
