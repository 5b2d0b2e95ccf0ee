/** Where the demo client app's browser lands after signing out at the provider (its post_logout_redirect_uri). */
export const DEMO_POST_LOGOUT_PATH = '/demo/';

/** Where the provider tells the demo that a session ended (its backchannel_logout_uri). */
export const DEMO_BACKCHANNEL_LOGOUT_PATH = '/demo/backchannel-logout';
