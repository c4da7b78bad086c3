/**
 * A browser's visits without a browser, for the OAuth flows' tests: cookies kept between requests (the
 * provider's interaction and session cookies), redirects not followed, so each step's `Location` is read.
 */
export function cookieBrowser(baseUrl: string): (url: string, init?: RequestInit) => Promise<Response> {
  const cookies = new Map<string, string>();
  return async (url, init = {}) => {
    const res = await fetch(new URL(url, baseUrl), {
      ...init,
      redirect: "manual",
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
    return res;
  };
}

/** A form post, as a page's `<form method="post">` sends it. */
export function formPost(body: Record<string, string>): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  };
}
