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
      livenessPort: defaultLivenessPort,
      stopGraceSeconds: defaultStopGraceSeconds,
      sendCaps: defaultSendCaps,
      whatsappWebVersion: undefined,
    });
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
