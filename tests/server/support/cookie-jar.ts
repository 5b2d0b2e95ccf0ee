/** A minimal cookie jar for driving the server with `inject` or fetch: honours Path, Max-Age=0 and Expires. */
export class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  /** Takes in every Set-Cookie header of a response. */
  store(setCookie: string | string[] | undefined | null): void {
    const headers = setCookie === undefined || setCookie === null ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
    for (const header of headers) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', attributeValue = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = attributeValue;
        if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
        if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) < Date.now()) expired = true;
      }
      const key = `${name}@${path}`;
      if (expired) this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  /** The Cookie header for a request to `url` (absolute or a path). */
  header(url: string | URL): string {
    const pathName = new URL(url, 'http://localhost').pathname;
    return [...this.cookies.entries()]
      .filter(([, cookie]) => pathName === cookie.path || pathName.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`))
      .map(([key, cookie]) => `${key.slice(0, key.lastIndexOf('@'))}=${cookie.value}`)
      .join('; ');
  }

  /** Every cookie name currently held. */
  names(): string[] {
    return [...this.cookies.keys()].map((key) => key.slice(0, key.lastIndexOf('@')));
  }

  /** The value of the cookie `name`, if held. */
  value(name: string): string | undefined {
    return [...this.cookies.entries()].find(([key]) => key.slice(0, key.lastIndexOf('@')) === name)?.[1].value;
  }

  /** Holds a cookie as if a server had set it (a test's forged or carried-over cookie). */
  set(name: string, value: string, path = '/'): void {
    this.cookies.set(`${name}@${path}`, { value, path });
  }
}
