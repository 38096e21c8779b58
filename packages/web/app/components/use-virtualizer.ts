import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  Virtualizer,
  type VirtualizerOptions,
} from '@tanstack/virtual-core';
import { useLayoutEffect, useState } from 'preact/hooks';

type Options = Pick<
  VirtualizerOptions<HTMLDivElement, HTMLElement>,
  'count' | 'getScrollElement' | 'estimateSize' | 'overscan' | 'scrollMargin'
>;

// @tanstack/virtual-core bound to a Preact component (what @tanstack/react-virtual does for React):
// the instance lives as long as the component, and any change of range re-renders it.
export function useVirtualizer(options: Options): Virtualizer<HTMLDivElement, HTMLElement> {
  const [, rerender] = useState(0);
  const resolved: VirtualizerOptions<HTMLDivElement, HTMLElement> = {
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    ...options,
    onChange: () => rerender((n) => n + 1),
  };
  const [instance] = useState(() => new Virtualizer(resolved));
  instance.setOptions(resolved);
  useLayoutEffect(() => instance._didMount(), [instance]);
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}
