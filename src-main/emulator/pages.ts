import type { Json } from './http-error';

const escape = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The controller's own tiny login page at `/` (served even with the REST-style API off). */
export function loginPage(controllerName: string): string {
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Web Power Switch</title></head>
<body><h1>${escape(controllerName)}</h1><p>Digital Loggers Web Power Switch</p>
<form method="post" action="/login.tgi"><label>User name <input name="Username"></label>
<label>Password <input name="Password" type="password"></label><button>Sign in</button></form>
<p>Copyright Digital Loggers, Inc.</p></body></html>
`;
}

/** What `/restapi/…` answers while "Allow REST-style API" is off. */
export const API_DISABLED_PAGE = `<!DOCTYPE html>
<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1>
<p>The requested URL was not found on this server.</p></body></html>
`;

/** A browsable page for people who open `/restapi/…` in a browser. */
export function resourcePage(uri: string, value: Json): string {
  const children =
    value !== null && typeof value === 'object'
      ? Object.keys(value)
          .map((key) => `<li><a href="${escape(uri + encodeURIComponent(key))}/">${escape(key)}</a></li>`)
          .join('')
      : '';
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>${escape(uri)}</title></head>
<body><h1>${escape(uri)}</h1>${children ? `<ul>${children}</ul>` : ''}
<pre>${escape(JSON.stringify(value, null, 2) ?? '')}</pre></body></html>
`;
}
