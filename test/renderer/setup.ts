import '@testing-library/jest-dom/vitest';
import { afterEach } from 'vitest';

// jsdom has no layout engine and leaves out a few browser APIs the window relies on. These stand-ins do
// only what the browser would do for the behaviour under test; they hold no application logic.

if (!HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom cannot draw on a canvas (it logs "not implemented"); charts then show their text summary only.
HTMLCanvasElement.prototype.getContext = (() => null) as typeof HTMLCanvasElement.prototype.getContext;

// Svelte's bind:clientWidth/clientHeight observe size changes; jsdom has no layout, so nothing ever resizes.
if (!globalThis.ResizeObserver) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

// The window keeps its place in the address (#/local/…): each test starts where a fresh window does,
// whatever page the one before it left open.
afterEach(() => history.replaceState(null, '', '/'));
