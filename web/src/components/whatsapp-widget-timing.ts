/**
 * When the floating WhatsApp button shows and for how long (docs/product.md#screens). Apart from
 * the widget, so the root layout can time it without taking the widget's code into the first load.
 */
export const widgetShowDelayMs = 30_000;
export const widgetVisibleMs = 8_000;
/** The widget's code is fetched this long before it shows. */
export const widgetFetchAheadMs = 5_000;
