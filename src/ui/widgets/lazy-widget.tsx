/**
 * Widgets only some steps use are loaded when first rendered, so the login screen's JavaScript does
 * not carry them. Until the chunk arrives the field keeps its height.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import type { WidgetProps } from '@rjsf/utils';

/** A widget that loads `load`'s default export on first render. */
export function lazyWidget(load: () => Promise<{ default: ComponentType<WidgetProps> }>): ComponentType<WidgetProps> {
  const Widget = lazy(load);
  return function LazyWidget(props: WidgetProps) {
    return (
      <Suspense fallback={<div className="field-input widget-loading" aria-hidden="true" />}>
        <Widget {...props} />
      </Suspense>
    );
  };
}
