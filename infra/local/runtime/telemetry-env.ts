/**
 * Powertools settings of the local runtime, set before any handler module is loaded (this module is
 * the runtime's first import): no EMF metric lines on the console (there is no CloudWatch to read
 * them). The logger stays on (JSON lines for warnings and errors), and the tracer is off by itself
 * outside Lambda. The X-Ray SDK the tracer loads starts in manual mode: in its default mode it
 * installs an async hook (cls-hooked) that tracks every promise's creation and destruction, about a
 * tenth of the runtime's main thread under load (ADR-0137), for traces nothing here sends.
 */
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.AWS_XRAY_MANUAL_MODE ??= 'true';
