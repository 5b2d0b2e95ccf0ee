-- When the person last proved they receive mail at the account's address (a code or a link sent there); null: never,
-- as for an account an operator made. The ID token's and userinfo's email_verified says whether it is set.
alter table users add column email_verified_at timestamptz;

-- Accounts from before: a finished sign-up or invitation (the terms were accepted on it) or email codes as a confirmed
-- second factor proved the address; an operator's account with neither stays unproven.
update users u set email_verified_at = coalesce(u.terms_accepted_at, u.created_at)
where u.terms_accepted_at is not null
   or exists (select 1 from mfa_factors f where f.user_id = u.id and f.kind = 'email' and f.confirmed_at is not null);
