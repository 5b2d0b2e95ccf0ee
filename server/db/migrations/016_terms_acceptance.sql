-- When the person accepted the terms: on the registration form (recorded as the account is made) or on an
-- invitation's password step. Null for accounts made before this was recorded, or by an operator alone.
alter table users add column terms_accepted_at timestamptz;
