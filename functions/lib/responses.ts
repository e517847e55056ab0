/** HTTP answers in the API Gateway (HTTP API, payload 2.0) result shape. */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpResult = APIGatewayProxyStructuredResultV2;

const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export const json = (statusCode: number, body: unknown): HttpResult => ({ statusCode, headers, body: JSON.stringify(body) });
export const ok = (body: unknown) => json(200, body);
export const created = (body: unknown) => json(201, body);
export const noContent = (): HttpResult => ({ statusCode: 204, headers: { 'cache-control': 'no-store' } });
