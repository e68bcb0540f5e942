/**
 * Webhook URLs as written (docs/behaviour.md §2): their authority and credentials, read from the text itself
 * (WHATWG parsing would read `http:///hook` as the host `hook`). No zod here: the forwarder's thread loads it.
 */

/** An absolute http(s) URL's authority as written, split at its last `@`: `user:pass` and `host:port`. */
export function urlAuthority(url: string): { userinfo: string | null; host: string } | null {
  const m = /^https?:\/\/([^/?#\\]*)/i.exec(url);
  if (!m) return null;
  const authority = m[1] ?? '';
  const at = authority.lastIndexOf('@');
  return { userinfo: at < 0 ? null : authority.slice(0, at), host: authority.slice(at + 1) };
}

/**
 * The user name and password of `http://user:pass@host/` as they are sent (percent-decoded), or null
 * without credentials. docs/behaviour.md §2: they go out as `Authorization: Basic`, as with curl.
 */
export function urlCredentials(url: string): { user: string; password: string } | null {
  const userinfo = urlAuthority(url)?.userinfo;
  if (userinfo === null || userinfo === undefined) return null;
  const colon = userinfo.indexOf(':');
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  return colon < 0 ? { user: decode(userinfo), password: '' } : { user: decode(userinfo.slice(0, colon)), password: decode(userinfo.slice(colon + 1)) };
}
