import { useEffect, useRef } from "react";

/**
 * A ref for an element that takes the keyboard's focus whenever `shown` becomes something (an
 * answer, an error, a review, a new team), so that a keyboard or screen-reader user lands on what
 * just appeared instead of on the page's body. The element needs tabIndex={-1}.
 */
export function useFocusOn<T extends HTMLElement>(shown: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  return ref;
}
