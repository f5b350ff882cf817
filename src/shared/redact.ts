/** Query parameters whose value is a credential. */
const SECRET_PARAMS = new RegExp(
  '([?&;](?:api[_-]?key|apikey|key|access[_-]?token|refresh[_-]?token|id[_-]?token|token|auth|authorization' +
    '|secret|client[_-]?secret|password|passwd|pwd|sig|signature|x-amz-signature|x-amz-credential' +
    '|session[_-]?token|code)=)[^&#;\\s"\'<>]*',
  'giu',
);

/** `scheme://user:password@host` or `scheme://token@host`. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@"'<>]+@/giu;

/** `Bearer xxx` and `Authorization: xxx` as they appear in some client errors. */
const BEARER = /\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/giu;

/**
 * Removes credentials from a diagnostic or error message: URL user info and secret query parameters
 * (key, token, api_key, …) become `***`. Used for every message the program writes about a failure; the
 * provider's own response body is kept RAW (M-9.5) and does not go through here.
 */
export function redactSecrets(text: string): string {
  return text.replace(URL_USERINFO, '$1***@').replace(SECRET_PARAMS, '$1***').replace(BEARER, '$1***');
}

/** A URL fit to show: user info and secret query parameters removed. */
export function redactUrl(url: string): string {
  return redactSecrets(url);
}
