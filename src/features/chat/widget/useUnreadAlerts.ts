import { useEffect, useRef } from 'react';
import type { Translate } from './translate';

/** Blinks the page title while there are unread messages and the page is hidden, and restores it after. */
export function useTitleBlink(unread: number, pageVisible: boolean, t: Translate) {
  const original = useRef<string | null>(null);
  useEffect(() => {
    if (unread === 0 || pageVisible) {
      if (original.current !== null) document.title = original.current;
      original.current = null;
      return;
    }
    original.current ??= document.title;
    const base = original.current;
    let on = false;
    const timer = window.setInterval(() => {
      on = !on;
      document.title = (on ? t('titleItems', { n: unread }) : t('titleUnread')) + base;
    }, 1000);
    return () => window.clearInterval(timer);
  }, [unread, pageVisible, t]);
}

/** Browsers only grant notification permission from a user gesture, so ask on the first click in the page. */
export function useNotificationPermission() {
  useEffect(() => {
    if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
    const ask = () => void Notification.requestPermission();
    document.addEventListener('click', ask, { once: true });
    return () => document.removeEventListener('click', ask);
  }, []);
}

export function showBrowserNotification(unread: number, t: Translate, icon?: string) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  new Notification(t('newMessage'), { body: t('unreadMessages', { n: unread }), icon, tag: 'ichat-unread' });
}

let audioContext: AudioContext | null = null;

/** A short two-note chime, or the host's sound file. */
export function playMessageSound(url?: string) {
  try {
    if (url) {
      void new Audio(url).play().catch(() => {});
      return;
    }
    audioContext ??= new AudioContext();
    const ctx = audioContext;
    [880, 1320].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.08, ctx.currentTime + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + i * 0.12 + 0.15);
      osc.connect(gain).connect(ctx.destination);
      osc.start(ctx.currentTime + i * 0.12);
      osc.stop(ctx.currentTime + i * 0.12 + 0.16);
    });
  } catch {
    // No audio device or autoplay refused: the badge and title still tell the user.
  }
}

export function usePageVisible(onChange: (visible: boolean) => void) {
  const cb = useRef(onChange);
  cb.current = onChange;
  useEffect(() => {
    const handler = () => cb.current(document.visibilityState === 'visible');
    document.addEventListener('visibilitychange', handler);
    return () => document.removeEventListener('visibilitychange', handler);
  }, []);
}
