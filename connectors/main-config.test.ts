import { describe, expect, it } from 'vitest';
import { defaultLivenessPort } from './liveness.ts';
import { defaultStopGraceSeconds, mainConfig } from './main-config.ts';
import { defaultSendCaps } from './send-caps.ts';

const cloud = { TABLE_NAME: 't', BUCKET_NAME: 'b', DATA_KEY_ARN: 'arn:aws:secretsmanager:us-east-1:1:secret:k' };

describe('mainConfig', () => {
  it('reads capacity, the queue URL, the liveness port and the stop grace', () => {
    expect(mainConfig({ ...cloud, WORKER_CAPACITY: '34', WORKER_QUEUE_URL: 'https://sqs/q.fifo', LIVENESS_PORT: '9000', STOP_GRACE_SECONDS: '20' })).toEqual({
      capacity: 34,
      queueUrl: 'https://sqs/q.fifo',
      fleet: undefined,
      livenessPort: 9000,
      stopGraceSeconds: 20,
      sendCaps: defaultSendCaps,
      whatsappWebVersion: undefined,
    });
  });

  it('defaults to unlimited capacity, no queue, the default port and grace', () => {
    expect(mainConfig(cloud)).toEqual({
      capacity: undefined,
      queueUrl: undefined,
      fleet: undefined,
      livenessPort: defaultLivenessPort,
      stopGraceSeconds: defaultStopGraceSeconds,
      sendCaps: defaultSendCaps,
      whatsappWebVersion: undefined,
    });
  });

  it('joins a fleet with a prefix for its own queue (and the dead-letter queue its own queue redrives to), and names a wrong prefix', () => {
    const fleet = {
      ...cloud,
      WORKER_QUEUE_URL: 'https://sqs/q.fifo',
      WORKER_FLEET_PREFIX: 'Conversa-prod-worker-',
      WORKER_DLQ_ARN: 'arn:aws:sqs:us-east-1:1:dlq.fifo',
    };
    expect(mainConfig(fleet).fleet).toEqual({ prefix: 'Conversa-prod-worker-', deadLetterArn: 'arn:aws:sqs:us-east-1:1:dlq.fifo' });
    expect(() => mainConfig({ ...fleet, WORKER_FLEET_PREFIX: 'bad prefix' })).toThrow(/WORKER_FLEET_PREFIX must be 1 to 40 letters/);
    expect(() => mainConfig({ ...cloud, WORKER_FLEET_PREFIX: 'p-' })).toThrow(/WORKER_FLEET_PREFIX is set but WORKER_QUEUE_URL is not/);
  });

  it('takes a pinned WhatsApp Web version, and names a malformed one', () => {
    expect(mainConfig({ ...cloud, WHATSAPP_WEB_VERSION: '2.3000.1043857760' }).whatsappWebVersion).toEqual([2, 3000, 1043857760]);
    expect(mainConfig({ ...cloud, WHATSAPP_WEB_VERSION: '2, 3000, 1043857760' }).whatsappWebVersion).toEqual([2, 3000, 1043857760]);
    expect(() => mainConfig({ ...cloud, WHATSAPP_WEB_VERSION: '2.3000' })).toThrow(
      /WHATSAPP_WEB_VERSION must be three whole numbers like 2.3000.1043857760, not "2.3000"/,
    );
  });

  it('reads the daily send caps, and names a wrong one', () => {
    expect(mainConfig({ ...cloud, WHATSAPP_DAILY_SEND_CAP: '400', WHATSAPP_DAILY_NEW_CHAT_CAP: '20' }).sendCaps).toEqual({
      dailySends: 400,
      dailyNewChats: 20,
    });
    expect(() => mainConfig({ ...cloud, WHATSAPP_DAILY_NEW_CHAT_CAP: '0' })).toThrow(
      /WHATSAPP_DAILY_NEW_CHAT_CAP must be a whole number of at least 1, not "0"/,
    );
  });

  it('takes the data key itself where no ARN is given (a run outside AWS)', () => {
    expect(() => mainConfig({ TABLE_NAME: 't', BUCKET_NAME: 'b', DATA_KEY: 'k' })).not.toThrow();
  });

  it('names every problem at once', () => {
    expect(() => mainConfig({ WORKER_CAPACITY: '0', LIVENESS_PORT: 'x' })).toThrow(
      /TABLE_NAME is not set\n {2}BUCKET_NAME is not set\n {2}neither DATA_KEY_ARN nor DATA_KEY is set.*\n {2}WORKER_CAPACITY must be a whole number from 1.*"0"\n {2}LIVENESS_PORT must be a whole number from 1 to 65535, not "x"/,
    );
  });
});
