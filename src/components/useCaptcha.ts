import { useCallback, useEffect, useState } from 'react';
import { useDataClient } from '@/app/dataClient';

/** `ready`: a captcha is in to be answered (a form sent before that would only be refused as a missing captcha). */
export type Captcha = { uuid: string; img: string; loading: boolean; ready: boolean; refresh: () => void };

/** A captcha image and its uuid; `refresh` fetches a new one (on click, and after a failed attempt). */
export function useCaptcha(): Captcha {
  const client = useDataClient();
  const [state, setState] = useState({ uuid: '', img: '' });
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let current = true;
    setLoading(true);
    client.session
      .captchaImage()
      .then((captcha) => {
        if (current) setState({ uuid: captcha.uuid, img: captcha.img });
      })
      // The worker already showed why; the image stays empty and a click tries again.
      .catch(() => undefined)
      .finally(() => {
        if (current) setLoading(false);
      });
    return () => {
      current = false;
    };
  }, [client, generation]);

  const refresh = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, loading, ready: !loading && state.uuid !== '', refresh };
}
