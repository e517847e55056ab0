/**
 * How a worker-held session reports on its connection. Every write is conditional on the session's
 * run, so a late report of a replaced or stopped run changes nothing.
 */
import { writeServiceStatus } from '#db/services.ts';
import type { Ports } from '../ports.ts';
import type { ChannelRun, SessionReport } from './port.ts';

export function sessionReport(ports: Ports, run: ChannelRun): SessionReport {
  const service = { accountId: run.accountId, id: run.serviceId, channelType: run.type };
  const now = () => ports.clock().toISOString();
  return {
    async connected() {
      const written = await writeServiceStatus(ports.table, service, {
        status: 'connected',
        qrCode: null,
        pairingCode: null,
        onlyRun: run.runId,
        onlyFrom: ['starting', 'isOnQrCode', 'connected'],
        now: now(),
      });
      return Boolean(written);
    },
    async pairing(qrCode) {
      const written = await writeServiceStatus(ports.table, service, {
        status: 'isOnQrCode',
        qrCode,
        pairingCode: null,
        onlyRun: run.runId,
        onlyFrom: ['starting', 'isOnQrCode', 'connected'],
        now: now(),
      });
      return Boolean(written);
    },
    async pairingCode(code) {
      const written = await writeServiceStatus(ports.table, service, {
        status: 'isOnQrCode',
        qrCode: null,
        pairingCode: code,
        onlyRun: run.runId,
        onlyFrom: ['starting', 'isOnQrCode'],
        now: now(),
      });
      return Boolean(written);
    },
    async reconnecting(reason) {
      // Only a connection that was receiving (or already reconnecting): one waiting for a pairing keeps its code on screen.
      const written = await writeServiceStatus(ports.table, service, {
        status: 'starting',
        statusReason: reason,
        onlyRun: run.runId,
        onlyFrom: ['connected', 'starting'],
        now: now(),
      });
      return Boolean(written);
    },
    async stopped(reason) {
      await writeServiceStatus(ports.table, service, {
        status: 'disconnected',
        statusReason: reason,
        qrCode: null,
        pairingCode: null,
        onlyRun: run.runId,
        now: now(),
      });
    },
  };
}
