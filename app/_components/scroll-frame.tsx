"use client";

import { type ReactNode, useEffect, useRef, useState } from "react";

/**
 * A frame that scrolls when its content is wider (or taller) than the screen. While it does, it can
 * be reached with Tab and scrolled with the arrow keys (a region named after its content), and a line
 * under it says that it scrolls sideways; otherwise it is a plain box.
 */
export function ScrollFrame({ className, label, children }: { className: string; label: string; children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState({ x: false, y: false });
  useEffect(() => {
    const element = frame.current!;
    const measure = () => setOverflow({ x: element.scrollWidth > element.clientWidth + 1, y: element.scrollHeight > element.clientHeight + 1 });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  const scrolls = overflow.x || overflow.y;
  return (
    <div>
      <div ref={frame} className={className} tabIndex={scrolls ? 0 : undefined} role={scrolls ? "region" : undefined} aria-label={scrolls ? label : undefined}>
        {children}
      </div>
      {overflow.x && (
        <p className="mt-1 text-right text-xs text-slate-600" aria-hidden="true" data-testid="scroll-hint">
          Scroll sideways for more columns →
        </p>
      )}
    </div>
  );
}
