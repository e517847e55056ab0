/** The cloud mailer: Amazon SES v2, its client loaded when the first mail is sent (most functions send none). */
import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mailer } from '#domain/ports.ts';
import { traced } from './observability.ts';

export function sesMailer(from: string, given?: SESv2Client): Mailer {
  let client = given;
  return {
    async send(mail) {
      const { SESv2Client, SendEmailCommand } = await import('@aws-sdk/client-sesv2');
      client ??= traced(new SESv2Client({}));
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [mail.to] },
          Content: {
            Simple: {
              Subject: { Data: mail.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    },
  };
}
