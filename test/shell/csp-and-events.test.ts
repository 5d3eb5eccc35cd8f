import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../src-main/shared/csp';
import { forwardEvents, type EventTarget } from '../../src-main/shell/events';
import type { EventSink } from '../../src-preload/contract';

function directives(policy: string): Map<string, string> {
  return new Map(policy.split('; ').map((part) => [part.split(' ')[0]!, part.slice(part.indexOf(' ') + 1)]));
}

describe('contentSecurityPolicy', () => {
  it('allows only the bundle: no inline script, no eval, no remote origin, no connections', () => {
    const policy = directives(contentSecurityPolicy());
    expect(policy.get('default-src')).toBe("'none'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(policy.get('style-src')).toBe("'self'");
    expect(policy.get('connect-src')).toBe("'none'");
    expect(policy.get('frame-ancestors')).toBe("'none'");
    expect(policy.get('object-src')).toBe("'none'");
    expect(policy.get('base-uri')).toBe("'none'");
  });

  it('opens exactly what a shell asks for', () => {
    const web = directives(contentSecurityPolicy({ connect: ['ws://127.0.0.1:4000'] }));
    expect(web.get('connect-src')).toBe('ws://127.0.0.1:4000');
    expect(web.get('style-src')).toBe("'self'");
    const dev = directives(contentSecurityPolicy({ devStyles: true }));
    expect(dev.get('style-src')).toBe("'self' 'unsafe-inline'");
    expect(dev.get('script-src')).toBe("'self'");
  });
});

describe("the page's own <meta> policy (the Electron window's file:// page)", () => {
  const html = readFileSync(resolve(import.meta.dirname, '..', '..', 'src-renderer', 'index.html'), 'utf8');
  const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);

  it('lets the window connect nowhere: it talks to main over IPC, and a WebSocket is the web shell only', () => {
    expect(meta).not.toBeNull();
    const policy = directives(meta![1]!);
    expect(policy.get('connect-src')).toBe("'none'");
    expect(meta![1]).not.toMatch(/\bws:|wss:/);
  });

  it('is the Electron header policy, minus what a <meta> tag cannot carry', () => {
    const header = directives(contentSecurityPolicy());
    header.delete('frame-ancestors'); // ignored in a <meta> policy
    expect(directives(meta![1]!)).toEqual(header);
  });
});

describe('forwardEvents', () => {
  function target(url: string, destroyed = false) {
    const sent: [string, unknown][] = [];
    const window: EventTarget = {
      isDestroyed: () => destroyed,
      webContents: { getURL: () => url, send: (channel, payload) => void sent.push([channel, payload]) },
    };
    return { window, sent };
  }

  it('sends each Core event on its own channel to app windows only, until unsubscribed', () => {
    let sink: EventSink | undefined;
    const core = { subscribe: (s: EventSink) => ((sink = s), () => (sink = undefined)) };
    const app = target('file:///app/index.html');
    const foreign = target('https://evil.example/');
    const closed = target('file:///app/index.html', true);
    const stop = forwardEvents(
      core,
      () => [app.window, foreign.window, closed.window],
      (url) => url === 'file:///app/index.html',
    );
    sink!('groups/changed', []);
    expect(app.sent).toEqual([['groups/changed', []]]);
    expect(foreign.sent).toEqual([]);
    expect(closed.sent).toEqual([]);
    stop();
    expect(sink).toBeUndefined();
  });
});
