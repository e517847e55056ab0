import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { followTableClock, observeTableDate, tableNow } from '#db/table-clock.ts';

describe('table clock', () => {
  it("follows the table's Date header, not the host's clock, within the header's second", () => {
    const hostNow = Date.now();
    const tableAhead = new Date(hostNow + 60 * 60 * 1000).toUTCString();
    observeTableDate(tableAhead, hostNow);
    expect(Math.abs(tableNow() - (hostNow + 60 * 60 * 1000))).toBeLessThan(1_500);
    // Readings a little apart are averaged, a far one (the table's clock was set) is taken at once.
    observeTableDate(new Date(hostNow - 5 * 60 * 1000).toUTCString(), hostNow);
    expect(Math.abs(tableNow() - (hostNow - 5 * 60 * 1000))).toBeLessThan(1_500);
    observeTableDate('not a date', hostNow);
    observeTableDate(undefined, hostNow);
    expect(Math.abs(tableNow() - (hostNow - 5 * 60 * 1000))).toBeLessThan(1_500);
  });

  it('reads the header of every answer a followed client gets', async () => {
    // A server answering as DynamoDB does, with a clock two hours behind this host's.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('date', new Date(Date.now() - 2 * 60 * 60 * 1000).toUTCString());
        res.setHeader('content-type', 'application/x-amz-json-1.0');
        res.end(JSON.stringify({ TableNames: [] }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const client = followTableClock(
        new DynamoDBClient({
          endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
          region: 'us-east-1',
          credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
        }),
      );
      await client.send(new ListTablesCommand({}));
      expect(Math.abs(tableNow() - (Date.now() - 2 * 60 * 60 * 1000))).toBeLessThan(1_500);
      client.destroy();
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
