/**
 * The API token arrives in the ready URL (`/?token=…`). It is kept in sessionStorage (this tab only) and
 * taken out of the address bar, so it is not bookmarked, shared in a screenshot or kept in history.
 */
const KEY = 'hookbench.token';

export function takeToken(location: Location = window.location, storage: Storage = window.sessionStorage): string | null {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    storage.setItem(KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    return fromUrl;
  }
  return storage.getItem(KEY);
}
