/** Lambda event filtering as the stream routers apply it (functions/streams/event-filter.ts): one matcher for the cloud and this machine. */
export { matchesPattern, passesFilters } from '#functions/streams/event-filter.ts';
