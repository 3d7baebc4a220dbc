import { useEffect, useState } from 'react';

/**
 * A `blob:` URL showing `file` before it is sent (an image preview), revoked when the file changes
 * or the component goes. Null without a file, or where the browser cannot make one.
 */
export function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}
