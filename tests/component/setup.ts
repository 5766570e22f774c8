import '@testing-library/jest-dom/vitest';
import { act, cleanup, configure } from '@testing-library/react';
import { Modal, message, notification } from 'antd';
import { afterEach, beforeEach } from 'vitest';
import { forgetStartUpCookies } from '@/app/cookieJar';
import { createI18n } from '@/app/i18n';

// The suite runs two files at a time on two cores beside the browser suite (npm test): a screen that takes a while
// to come under that load still counts.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks what antd probes for (responsive grid, overflow, virtual lists): fill only the gaps.
if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList;
  }
  if (!('ResizeObserver' in window)) {
    // A browser's observer reports each element once after it is observed: here at once (jsdom has no frames), with
    // the sizes jsdom gives (those a test mocks).
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      constructor(private readonly report: ResizeObserverCallback) {}
      observe(target: Element) {
        const { clientWidth: width, clientHeight: height } = target;
        const size = [{ inlineSize: width, blockSize: height }];
        const entry = { target, contentRect: new DOMRect(0, 0, width, height), borderBoxSize: size, contentBoxSize: size, devicePixelContentBoxSize: size };
        this.report([entry as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
      }
      unobserve() {}
      disconnect() {}
    };
  }
  if (!('IntersectionObserver' in window)) {
    (window as unknown as { IntersectionObserver: unknown }).IntersectionObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
      takeRecords() {
        return [];
      }
    };
  }
  // antd measures scrollbars through getComputedStyle with a pseudo-element, which jsdom does not implement.
  const getComputedStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element: Element, _pseudo?: string | null) => getComputedStyle(element);
}

// Components rendered without the app's providers (the chat widget, as a host embeds it) read their texts from this
// instance: react-i18next falls back to the last one initialised.
createI18n('zh');

afterEach(async () => {
  cleanup();
  // antd's static messages, notifications and confirms live in roots of their own that cleanup() does not know: a
  // message's close timer would otherwise fire after the file's jsdom is gone and make React touch a missing window.
  message.destroy();
  notification.destroy();
  Modal.destroyAll();
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});

// Each test starts the app anew: it reads the cookies the test left, not the copy an earlier start-up kept.
beforeEach(() => forgetStartUpCookies());
