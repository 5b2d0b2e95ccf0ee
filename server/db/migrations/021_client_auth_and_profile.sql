-- How a client app authenticates at the token endpoint (null: as before, `none` for a public client and
-- `client_secret_basic` for a confidential one), the public keys it signs its client assertions with (inline or by
-- URL), the assertions' algorithm, and the profile every one of its requests must follow (`fapi2`: FAPI 2.0).
alter table clients add column token_endpoint_auth_method text
  check (token_endpoint_auth_method in ('none', 'client_secret_basic', 'client_secret_jwt', 'private_key_jwt'));
alter table clients add column jwks jsonb;
alter table clients add column jwks_uri text;
alter table clients add column token_endpoint_auth_signing_alg text;
alter table clients add column profile text not null default 'default' check (profile in ('default', 'fapi2'));
-- A service app's client_credentials grant: the scopes it may ask for (null: no such grant), and the resource server
-- (an RFC 8707 resource indicator) a client answers for, whose tokens it may introspect.
alter table clients add column service_scopes text[];
alter table clients add column resource_server text;
