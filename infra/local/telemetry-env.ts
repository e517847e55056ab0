/**
 * Powertools settings of the local runtime, set before any handler module is loaded (this module is
 * the runtime's first import): no EMF metric lines on the console (there is no CloudWatch to read
 * them). The logger stays on (JSON lines for warnings and errors), and the tracer is off by itself
 * outside Lambda.
 */
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
