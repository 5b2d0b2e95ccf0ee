/** The ID token signing algorithms a client may register (`id_token_signed_response_alg`); RS256 is the default. */
export const ID_TOKEN_SIGNING_ALGS = ['RS256', 'PS256', 'ES256'] as const;
