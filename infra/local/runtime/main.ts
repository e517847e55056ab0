/** `npm start`: runs the whole product locally, with the product's channel adapters, until Ctrl-C. */
import { serve } from './serve.ts';

await serve();
