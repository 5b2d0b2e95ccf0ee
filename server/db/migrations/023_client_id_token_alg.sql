-- The algorithm a client app asked to have its ID tokens signed with (RS256, PS256 or ES256); null: RS256, the default.
alter table clients add column id_token_signed_response_alg text;
