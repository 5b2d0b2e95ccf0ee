/**
 * The widget registry: a ui schema picks a widget by name with "ui:widget": "<name>".
 * Read top to bottom; add a widget by adding a line.
 */
import type { RegistryWidgetsType } from '@rjsf/utils';
import { EmailWidget } from './email-widget.tsx';
import { HiddenWidget } from './hidden-widget.tsx';
import { lazyWidget } from './lazy-widget.tsx';
import { PasswordWidget } from './password-widget.tsx';
import { TextWidget } from './text-widget.tsx';

/** Widget name -> component, passed to rjsf's `widgets` prop. */
export const widgetRegistry: RegistryWidgetsType = {
  'choice-list': lazyWidget(() => import('./choice-list-widget.tsx')),
  // rjsf's name for the widget of a boolean field.
  checkbox: lazyWidget(() => import('./checkbox-widget.tsx')),
  email: EmailWidget,
  hidden: HiddenWidget,
  'new-password': lazyWidget(() => import('./new-password-widget.tsx')),
  otp: lazyWidget(() => import('./otp-widget.tsx')),
  password: PasswordWidget,
  text: TextWidget,
};
