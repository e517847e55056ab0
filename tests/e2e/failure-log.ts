/**
 * A failed browser test prints the last lines of the runtimes its file started: a page that waits
 * in vain often waits on a consumer that failed in the runtime (a stream record dropped after its
 * retries, a job that threw), which the page's own errors cannot show.
 */
import { beforeEach } from 'vitest';
import { runtimeLogTails } from '../support/local-runtime.ts';

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const [i, lines] of runtimeLogTails().entries()) {
      console.error(`[runtime ${i + 1}, last ${lines.length} lines of its output]\n${lines.join('\n')}`);
    }
  });
});
