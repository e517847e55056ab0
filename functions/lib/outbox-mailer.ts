/** The local mailer: each e-mail is a JSON file in an outbox folder, and its code goes to the console. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ulid } from 'ulid';
import type { Mailer } from '#domain/ports.ts';

export function outboxMailer(dir: string): Mailer {
  return {
    async send(mail) {
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${ulid()}.json`);
      await writeFile(file, JSON.stringify({ ...mail, sentAt: new Date().toISOString() }, null, 2));
      console.log(`[mail] to ${mail.to}: "${mail.subject}"${mail.code ? ` code ${mail.code}` : ''} (${file})`);
    },
  };
}
