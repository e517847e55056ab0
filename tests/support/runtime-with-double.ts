/**
 * The local runtime as `npm start` runs it, but with the HTTP channel double (./http-double-channel.ts)
 * in place of every channel adapter, pointed at the fake channel named by FAKE_CHANNEL_URL.
 * FAKE_CHANNEL_STARTS=1: the double also starts and stops connections (the billing tests).
 */
import { serviceTypes } from '#contracts/services.ts';
import { serve } from '../../infra/local/runtime/serve.ts';
import { httpDoubleChannel } from './http-double-channel.ts';

const url = process.env.FAKE_CHANNEL_URL;
if (!url) throw new Error('FAKE_CHANNEL_URL is not set');
await serve({ channels: serviceTypes.map((type) => httpDoubleChannel(url, type, { starts: process.env.FAKE_CHANNEL_STARTS === '1' })) });
